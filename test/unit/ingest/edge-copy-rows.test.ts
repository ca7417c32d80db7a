import { copyJsonText } from '../../../src/graph/pg/bulk';
import { EdgeCopyRows } from '../../../src/graph/pg/copy-rows';

/**
 * Edge rows are written as bytes into large buffers; what they hold must be exactly the COPY text a row would have
 * been as a string, however ids, kinds and property sets vary and wherever a buffer ends.
 */
describe('edge rows in COPY text', () => {
  const kind = (id: number) => Buffer.from(`\t${id}\t`);
  const text = (rows: EdgeCopyRows) => Buffer.concat(rows.chunks()).toString('utf8');

  it('writes ids as decimal digits, the kind between tabs and the properties as given', () => {
    const ids = [1, 9, 10, 99, 100, 12345, 2 ** 31 - 1, 2 ** 31, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER];
    const props = Buffer.from(copyJsonText(JSON.stringify({ name: 'a\\b', é: 'ü', tab: '\t' })));
    const rows = new EdgeCopyRows();
    const expected: string[] = [];
    for (const [i, s] of ids.entries()) {
      const t = ids[ids.length - 1 - i]!;
      rows.add(s, t, kind(i), props);
      expected.push(`${s}\t${t}\t${i}\t${props.toString('utf8')}\n`);
    }
    expect(rows.rows).toBe(ids.length);
    expect(text(rows)).toBe(expected.join(''));
    // one COPY text value per column: the JSON's own backslashes are doubled, no raw tab or line break
    expect(text(rows).split('\n')[0]!.split('\t')).toHaveLength(4);
  });

  it('spreads rows over chunks of about a megabyte without cutting one, and takes a row larger than a chunk', () => {
    const rows = new EdgeCopyRows();
    const small = Buffer.from('{"isacl":true}');
    const huge = Buffer.from(JSON.stringify({ v: 'x'.repeat(3 << 20) }));
    const expected: string[] = [];
    for (let j = 0; j < 100_000; j++) {
      const p = j === 50_000 ? huge : small;
      rows.add(j + 1, 1_000_000 - j, kind(j % 7), p);
      expected.push(`${j + 1}\t${1_000_000 - j}\t${j % 7}\t${p.toString('utf8')}\n`);
    }
    const chunks = rows.chunks();
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c[c.length - 1]).toBe(0x0a);
    expect(chunks.some((c) => c.length > 3 << 20)).toBe(true);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(expected.join(''));
  });

  it('gives no chunk for no rows', () => {
    expect(new EdgeCopyRows().chunks()).toEqual([]);
  });
});
