import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import yazl from 'yazl';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { DEFAULT_LIMITS } from '../../src/ingest/ingest-stream';
import { createTestDb, type TestDb } from '../helpers/db';
import { TESTLAB } from '../helpers/fixtures';
import { zip } from '../helpers/zip';

const MiB = 1024 * 1024;

/** `{"meta":…,"data":[` then `mib` MiB of spaces then `]}`: valid JSON that compresses about a thousand times. */
function spaces(mib: number): Readable {
  let left = mib;
  const blank = Buffer.alloc(MiB, 0x20);
  return Readable.from(
    (function* () {
      yield Buffer.from('{"meta":{"type":"users","version":6},"data":[');
      while (left-- > 0) yield blank;
      yield Buffer.from(']}');
    })(),
  );
}

/** Writes a zip whose entries are streamed (a bomb is never held in memory). */
async function zipFile(file: string, entries: [string, () => Readable | Buffer][]): Promise<void> {
  const z = new yazl.ZipFile();
  for (const [name, data] of entries) {
    const d = data();
    if (Buffer.isBuffer(d)) z.addBuffer(d, name);
    else z.addReadStream(d, name);
  }
  z.end();
  await pipeline(z.outputStream, fs.createWriteStream(file));
}

/**
 * Archives are checked while they expand: entries counted from the directory before anything expands, the expansion
 * ratio of each entry and of the whole, and the total size. Defaults no real collection reaches (SharpHound and
 * AzureHound files compress 12–36 times; a 1M-node domain expands to ~3 GB).
 */
describe('archive limits', () => {
  let t: TestDb;
  let store: PgGraphStore;
  let dir: string;
  beforeAll(async () => {
    t = await createTestDb();
    store = new PgGraphStore(t.db);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-archive-'));
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t.drop();
  });
  const nodes = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from graph_nodes'))[0]!.n;

  it('states its defaults', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ maxArchiveEntries: 1000, maxExpansionRatio: 200, maxDecompressedBytes: 16 * 1024 * MiB });
  });

  it('refuses a zip of 20,000 entries from its directory, before any entry is read', async () => {
    const file = path.join(dir, 'many.zip');
    const many = new yazl.ZipFile();
    for (let i = 0; i < 20_000; i++) many.addBuffer(Buffer.alloc(0), `e${i}.json`, { compress: false });
    many.end();
    await pipeline(many.outputStream, fs.createWriteStream(file));
    const r = await ingestPath(store, file);
    expect(r.files).toEqual([]);
    expect(r.errors.map((e) => e.message)).toEqual([
      'many.zip: the archive holds 20000 entries, more than the 1000 allowed (ARCHIVE_MAX_ENTRIES)',
    ]);
  });

  it.each(['zip', 'gzip'])('stops a %s bomb of 256 MiB of valid JSON as it starts expanding', async (kind) => {
    const before = await nodes();
    const file = path.join(dir, `bomb.${kind}`);
    if (kind === 'zip') await zipFile(file, [['users.json', () => spaces(256)]]);
    else await pipeline(spaces(256), zlib.createGzip(), fs.createWriteStream(file));
    const size = fs.statSync(file).size;
    expect(size).toBeLessThan(MiB);
    const r = await ingestPath(store, file);
    expect(r.files).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toMatch(
      /expands to more than 200 times its compressed size of \d+ bytes \(ARCHIVE_MAX_RATIO; a zip bomb\?\); stopped after \d+ bytes/,
    );
    const stoppedAfter = Number(/stopped after (\d+) bytes/.exec(r.errors[0]!.message)![1]);
    expect(stoppedAfter).toBeLessThan(201 * size + MiB);
    expect(await nodes()).toBe(before);
  });

  it('stops a bomb entry behind an ordinary one, by the entry’s own ratio', async () => {
    const file = path.join(dir, 'mixed.zip');
    const users = fs.readFileSync(path.join(TESTLAB, 'users.json'));
    // 20 MB of incompressible bytes beside it: the archive as a whole expands only ~15 times.
    await zipFile(file, [
      ['users.json', () => users],
      ['noise.bin', () => crypto.randomBytes(20 * MiB)],
      ['zz-bomb.json', () => spaces(300)],
    ]);
    const r = await ingestPath(store, file);
    expect(r.files.map((f) => f.file)).toEqual(['mixed.zip:users.json']);
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^mixed\.zip:zz-bomb\.json: the entry expands to more than 200 times its compressed size/),
    ]);
  });

  it('ingests an ordinary collector zip', async () => {
    const file = path.join(dir, 'testlab.zip');
    const names = fs.readdirSync(TESTLAB).filter((f) => f.endsWith('.json'));
    fs.writeFileSync(file, await zip(names.map((n) => [n, fs.readFileSync(path.join(TESTLAB, n))] as [string, Buffer])));
    const r = await ingestPath(store, file);
    expect(r.errors).toEqual([]);
    expect(r.files).toHaveLength(names.length);
  });
});
