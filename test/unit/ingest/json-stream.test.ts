import fs from 'node:fs';
import path from 'node:path';
import { JsonItemSplitter, JsonStreamError } from '../../../src/ingest/json-stream';

const FIXTURES = path.resolve(__dirname, '../../fixtures/sharphound-v6-testlab');

function split(input: Buffer | string, chunkSize = 1 << 16) {
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input);
  const items: unknown[] = [];
  let meta: unknown;
  const s = new JsonItemSplitter({ meta: (m) => (meta = m), item: (i) => items.push(i) });
  for (let i = 0; i < buf.length; i += chunkSize) s.push(buf.subarray(i, i + chunkSize));
  s.end();
  return { meta, items };
}

describe('streaming JSON splitter', () => {
  it.each(fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.json')))(
    'yields exactly the data items of %s, whatever the chunking',
    (file) => {
      const raw = fs.readFileSync(path.join(FIXTURES, file));
      const whole = JSON.parse(raw.toString('utf8'));
      for (const size of [1, 7, 4096]) {
        const { meta, items } = split(raw, size);
        expect(meta).toEqual(whole.meta);
        expect(items).toEqual(whole.data);
      }
    },
  );

  it('handles meta after data, other keys, scalar items, escapes and a BOM', () => {
    const doc =
      '\uFEFF{"extra": {"a": [1, "]}"]}, "data": ["x\\"]", 12, true, {"k": "\\u00e9{"}], "count": 3, "meta": {"type": "deleted"}}';
    const { meta, items } = split(doc, 3);
    expect(meta).toEqual({ type: 'deleted' });
    expect(items).toEqual(['x"]', 12, true, { k: 'é{' }]);
  });

  it.each([
    ['', /empty/],
    ['[1,2]', /not a JSON object/],
    ['{"data": [{"a": 1}, {"a": }]}', /malformed data item/],
    ['{"data": [{"a": 1}', /ends in the middle/],
    ['{"data": [1}', /unexpected "}"/],
    ['{"data": 5}', /"data" must be an array/],
    ['{"meta": [], "data": []}', /"meta" must be an object/],
    ['{"data": []} x', /after the end/],
  ])('reports %j with its position', (doc, message) => {
    expect(() => split(doc)).toThrow(message);
    try {
      split(doc);
    } catch (err) {
      expect(err).toBeInstanceOf(JsonStreamError);
      expect((err as Error).message).toMatch(/line \d+, byte \d+/);
    }
  });

  it('skips through strings whole: escapes, line counts and the string limit hold at any chunking', () => {
    const doc = '{"data": [\n{"k": "a\\\\b\\"c{\\n", "l": "]]]"},\n{"m": "x\ny"}\n]}';
    for (const size of [1, 2, 5, 1 << 16]) expect(() => split(doc, size)).toThrow(/malformed data item.*line 4/);
    expect(split(doc.replace('x\ny', 'xy'), 3).items).toEqual([{ k: 'a\\b"c{\n', l: ']]]' }, { m: 'xy' }]);
    const long = (n: number) => `{"data": [{"s": "${'a'.repeat(n)}"}]}`;
    const splitter = (limit: number) => new JsonItemSplitter({ meta: () => undefined, item: () => undefined }, { maxStringBytes: limit });
    // The string opens at byte 16 and the limit counts from its opening quote: byte 117 is the first past it.
    expect(() => splitter(100).push(Buffer.from(long(99)))).not.toThrow();
    for (const n of [100, 101, 300])
      expect(() => splitter(100).push(Buffer.from(long(n)))).toThrow(/longer than the limit of 100 bytes at line 1, byte 117/);
  });

  it('counts lines for error positions', () => {
    expect(() => split('{\n"data": [\n{"a": 1},\n{"a": tru}\n]}')).toThrow(/line 4/);
  });

  it('walks inside items alike for strings around the short-string bound, escapes at its edge and any chunking', () => {
    // Strings of 0–140 bytes, some with escaped quotes and backslashes where the walk's window ends, in pretty-printed
    // nested items: every item must come out as JSON.parse reads the whole document, and an error after them keeps
    // its line.
    const strings = Array.from({ length: 141 }, (_, n) => 'a'.repeat(n));
    for (const n of [62, 63, 64, 65, 66]) strings.push('b'.repeat(n - 2) + '\\"', 'c'.repeat(n - 1) + '\\', '{'.repeat(n) + ']');
    const data = strings.map((v, i) => ({ i, v, nested: [[{ v, w: [] }], {}], tail: i % 2 === 0 }));
    const doc = JSON.stringify({ data, meta: { type: 'users' } }, null, 1);
    for (const size of [1, 3, 64, 65, 1 << 16]) expect(split(doc, size).items).toEqual(data);
    const lines = doc.split('\n').length;
    const broken = doc.replace(/\n}$/, ',\n"x": [{"a": [1}]\n}');
    for (const size of [5, 1 << 16]) expect(() => split(broken, size)).toThrow(new RegExp(`unexpected "}" at line ${lines},`));
  });

  it('counts a line break after a backslash inside an item as a line, as the string path does', () => {
    const doc = '{"data": [{"a": "x\\\n y", "b": [1,\n2]},\n{"c": tru}\n]}';
    for (const size of [1, 4, 1 << 16]) expect(() => split(doc, size)).toThrow(/malformed data item.* at line 3,/);
  });

  it('refuses brackets that do not match and nesting past the limit inside an item', () => {
    expect(() => split('{"data": [{"a": [1, {"b": 2]}]}')).toThrow(/unexpected "]"/);
    const deep = (n: number) => `{"data": [${'['.repeat(n)}${']'.repeat(n)}]}`;
    const splitter = () => new JsonItemSplitter({ meta: () => undefined, item: () => undefined }, { maxDepth: 10 });
    expect(() => splitter().push(Buffer.from(deep(8)))).not.toThrow();
    expect(() => splitter().push(Buffer.from(deep(9)))).toThrow(/nested deeper than the limit of 10/);
  });
});

describe('streaming JSON splitter strictness', () => {
  it.each(['{"data": [{"a": 1},]}', '{"meta": {"type": "users"}, "data": [],}'])('refuses a trailing comma: %s', (doc) => {
    expect(() => split(doc)).toThrow(/after ","/);
  });
});
