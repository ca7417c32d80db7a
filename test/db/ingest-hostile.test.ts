import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import type { IngestLimits } from '../../src/ingest/ingest-stream';
import { createTestDb, type TestDb } from '../helpers/db';
import { dataFirst } from '../helpers/data-first';
import { TESTLAB } from '../helpers/fixtures';
import { sharphound } from '../helpers/upload';
import { zip } from '../helpers/zip';

/**
 * Hostile and broken files: each fails alone with a message naming the file and the place, writes nothing, and
 * never becomes an unhandled error (the process would die, and jest with it).
 */
describe('ingest of hostile files', () => {
  let t: TestDb;
  let store: PgGraphStore;
  let dir: string;
  // Spools go to os.tmpdir(): a private one, so other processes' spools cannot make the leftover check fail.
  const sharedTmp = process.env.TMPDIR;
  let spoolTmp: string;
  beforeAll(async () => {
    t = await createTestDb();
    store = new PgGraphStore(t.db);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-hostile-'));
    spoolTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-hostile-tmp-'));
    process.env.TMPDIR = spoolTmp;
  });
  afterAll(async () => {
    if (sharedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = sharedTmp;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(spoolTmp, { recursive: true, force: true });
    await t.drop();
  });
  const nodeCount = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from graph_nodes'))[0]!.n;
  const write = (name: string, body: string | Buffer) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, body);
    return f;
  };
  const refused = async (name: string, body: string | Buffer, message: RegExp, limits?: Partial<IngestLimits>) => {
    const before = await nodeCount();
    const r = await ingestPath(store, write(name, body), { limits });
    expect(r.files).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')}\\b`));
    expect(r.errors[0]!.message).toMatch(message);
    expect(await nodeCount()).toBe(before);
    return r.errors[0]!.message;
  };
  const user = (id: string, extra: Record<string, unknown> = {}) => ({
    ObjectIdentifier: id,
    Properties: { name: id, ...extra },
    Aces: [],
  });
  const users = fs.readFileSync(path.join(TESTLAB, 'users.json'));

  it.each([1, 100, 0.5, 0.99, -1])('a data-first file cut short at %d (bytes, or a fraction of its length)', async (at) => {
    const whole = Buffer.from(dataFirst(users));
    const n = at === -1 ? whole.length - 1 : at < 1 ? Math.floor(whole.length * at) : at;
    await refused('cut.json', whole.subarray(0, n), /ends in the middle|malformed/);
  });

  it('a malformed item before "meta" is refused with its place once the spool is read back', async () => {
    const body = `{"data": [\n${JSON.stringify(user('S-1-5-21-1-1001'))},\n{"ObjectIdentifier": "X", "Properties": {"a": tru}}\n],\n"meta": {"type": "users", "version": 6}}`;
    const message = await refused('late.json', body, /malformed data item: .* at line 3, byte \d+/);
    expect(Number(/byte (\d+)/.exec(message)![1])).toBe(body.indexOf('}}\n]') + 2);
  });

  it.each([1, 200, 30000])('a meta-first file cut short after %i bytes', async (n) => {
    await refused('cut.json', users.subarray(0, n), /ends in the middle|malformed|no data tag|no valid meta/);
  });

  it('repeated "meta" or "data" keys', async () => {
    await refused('twice.json', '{"meta":{"type":"users"},"data":[],"meta":{"type":"groups"}}', /"meta" appears twice.*byte \d+/);
    await refused('twice.json', '{"data":[],"meta":{"type":"users"},"data":[]}', /"data" appears twice/);
  });

  it('a huge string, before and after meta', async () => {
    const huge = 'A'.repeat(2 * 1024 * 1024);
    await refused(
      'huge.json',
      sharphound('users', [user('S-1-5-21-9-9-9-1', { description: huge })]),
      /string is longer than the limit.*line 1, byte \d+/,
    );
    await refused(
      'huge.json',
      JSON.stringify({ data: [user('S-1-5-21-9-9-9-1', { description: huge })], meta: { type: 'users' } }),
      /string is longer/,
    );
    await refused('key.json', `{"${huge}": 1, "meta": {"type": "users"}, "data": []}`, /string is longer/);
  });

  it.each(['meta first', 'data first'])(
    'objects carrying long values are handed over by input bytes, not only by rows (%s)',
    async (order) => {
      // 40 users of ~100 KiB each, a batch bound of 1 MiB: several batches, where 40 rows alone would make one.
      // Random text: a zip of 4 MB of one letter would be refused by its expansion ratio first.
      const list = Array.from({ length: 40 }, (_, i) =>
        user(`S-1-5-21-7-7-7-${1000 + i}`, {
          description: `${i}:${crypto.randomBytes(77 * 1024).toString('base64')}`.slice(0, 100 * 1024),
        }),
      );
      const body = order === 'meta first' ? sharphound('users', list) : JSON.stringify({ data: list, meta: { type: 'users', version: 6 } });
      const progress: number[] = [];
      // A zip entry has no meta read from the file's end: the data-first order goes through the spool.
      const file = order === 'meta first' ? write('long.json', body) : write('long.zip', await zip([['long.json', body]]));
      const r = await ingestPath(store, file, { limits: { batchBytes: 1024 * 1024 }, onProgress: (n) => progress.push(n) });
      expect(r.errors).toEqual([]);
      expect(r.files[0]!.objects).toBe(40);
      expect(progress.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);
      // No empty batch handed over: each one brought objects.
      expect(progress[0]).toBeGreaterThan(0);
      expect(progress.every((n, i) => i === 0 || n > progress[i - 1]!)).toBe(true);
      expect(progress.at(-1)).toBe(40);
      const rows = await t.db.query<{ d: string }>(
        `select properties->>'description' as d from graph_nodes where objectid like 'S-1-5-21-7-7-7-%' order by objectid`,
      );
      expect(rows.map((x) => x.d.length)).toEqual(Array(40).fill(100 * 1024));
    },
  );

  it('deeply nested values', async () => {
    const deep = '['.repeat(10000) + ']'.repeat(10000);
    await refused('deep.json', `{"data":[{"ObjectIdentifier":"S-1","Properties":{"x":${deep}}}],"meta":{"type":"users"}}`, /nested deeper/);
    await refused('deep.json', `{"meta":{"type":"users","x":${deep}},"data":[]}`, /nested deeper/);
  });

  it('a single object over the object limit, and a property value over the property limit', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      PrincipalSID: `S-1-5-21-9-9-9-${i}`,
      RightName: 'GenericAll',
      IsInherited: false,
    }));
    const msg = await refused(
      'big.json',
      sharphound('users', [{ ...user('S-1-5-21-9-9-9-2'), Aces: many }]),
      /data item is larger than the limit of 65536 bytes/,
      {
        maxItemBytes: 64 * 1024,
      },
    );
    expect(msg).toMatch(/line \d+, byte \d+/);
    const spns = Array.from({ length: 3000 }, (_, i) => `HTTP/host${i}.testlab.local`);
    await refused(
      'prop.json',
      sharphound('users', [user('S-1-5-21-9-9-9-3', { serviceprincipalnames: spns })]),
      /data item 0: property "serviceprincipalnames" of S-1-5-21-9-9-9-3 is \d+ bytes, over the limit of 4096/,
      {
        maxPropertyBytes: 4096,
      },
    );
  });

  it.each([
    ['binary bytes', Buffer.from([0x00, 0xff, 0xfe, 0x01, 0x02])],
    ['an XML document', '<?xml version="1.0"?><data/>'],
    ['a JSON array', '[{"meta": {}}]'],
    ['an empty file', ''],
    [
      'bad UTF-8 inside a string',
      Buffer.concat([
        Buffer.from('{"meta":{"type":"users"},"data":[{"ObjectIdentifier":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}]}'),
      ]),
    ],
  ])('non-JSON: %s', async (_, body) => {
    const r = await ingestPath(store, write('junk.json', body));
    if (r.errors.length) expect(r.errors[0]!.message).toMatch(/^junk\.json: /);
    else expect(r.files).toHaveLength(1); // invalid UTF-8 decodes to U+FFFD, as Go's decoder does
  });

  it('a zip with no JSON file says so; a corrupt zip is refused', async () => {
    await refused(
      'notes.zip',
      await zip([
        ['readme.txt', 'hello'],
        ['users.json.bak', 'x'],
      ]),
      /archive holds no JSON files/,
    );
    const archive = await zip([['users.json', users]]);
    await refused(
      'corrupt.zip',
      Buffer.concat([archive.subarray(0, 40), Buffer.alloc(200, 7)]),
      /unreadable zip archive|no JSON|central directory|end of central/i,
    );
    const flipped = Buffer.from(archive);
    flipped[200] ^= 0xff; // inside the deflated data: inflate or CRC fails while streaming
    const r = await ingestPath(store, write('flipped.zip', flipped));
    expect(r.errors.map((e) => e.message).join()).toMatch(/^flipped\.zip:users\.json: /);
  });

  it('zip and gzip bombs stop at the decompressed-size limit', async () => {
    const filler = sharphound(
      'users',
      Array.from({ length: 20000 }, () => user('S-1-5-21-9-9-9-4')),
    );
    const bomb = await zip([
      ['a.json', filler],
      ['b.json', filler],
    ]);
    expect(bomb.length).toBeLessThan(filler.length / 20);
    await refused('bomb.zip', bomb, /decompress.*limit of 1000000 bytes/, { maxDecompressedBytes: 1_000_000 });
    await refused('bomb.json.gz', zlib.gzipSync(filler), /decompress.*limit of 1000000 bytes/, {
      maxDecompressedBytes: 1_000_000,
    });
  });

  it('one object with 300,000 ACEs (under the item cap) lands: no argument-count overflow', async () => {
    // One principal, so the store merges them into one edge and the test stays fast; the converter still hands
    // ingest 300,000 edges for the object.
    const aces = Array.from({ length: 300_000 }, () => ({
      PrincipalSID: 'S-1-5-21-8-8-8-2',
      PrincipalType: 'User',
      RightName: 'GenericAll',
    }));
    const r = await ingestPath(
      store,
      write('hub.json', JSON.stringify({ data: [{ ...user('S-1-5-21-8-8-8-1'), Aces: aces }], meta: { type: 'users' } })),
    );
    expect(r.errors).toEqual([]);
    expect(r.files[0]).toMatchObject({ objects: 1, edges: 300_000 });
  }, 180_000); // generous: a loaded CI machine; no timing is asserted

  it('a good file after all that still lands, both key orders', async () => {
    expect((await ingestPath(store, write('users.json', dataFirst(users)))).errors).toEqual([]);
    expect((await ingestPath(store, path.join(TESTLAB, 'users.json'))).errors).toEqual([]);
    expect(await nodeCount()).toBeGreaterThan(17);
    expect(fs.readdirSync(spoolTmp).filter((d) => d.startsWith('gas-spool-'))).toEqual([]);
  });
});
