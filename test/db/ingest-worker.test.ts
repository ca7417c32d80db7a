import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { idleConversionWorkers } from '../../src/ingest/convert-in-worker';
import { ingestPath } from '../../src/ingest/ingest-path';
import { ingestStream, IngestError } from '../../src/ingest/ingest-stream';
import { tailMeta } from '../../src/ingest/tail-meta';
import { generateSharpHound } from '../../src/generate/sharphound';
import type { PreparedBatch } from '../../src/graph/prepared';
import type { GraphStore, GraphWriter } from '../../src/graph/store';
import { dataFirst } from '../helpers/data-first';
import { AZUREHOUND, dumpGraph, TESTLAB, TESTLAB_ALL_FILES } from '../helpers/fixtures';
import { useIngestFiles } from '../helpers/ingest-files';
import { zip } from '../helpers/zip';

/**
 * Collector files are parsed and converted in a worker thread while the calling thread only writes. The worker is
 * an implementation detail: the graph, the results, the refusals and their messages must be exactly those of the
 * same files read on the calling thread (`convertInWorker: false`), on either database.
 */
describe('ingest with conversion in a worker thread', () => {
  const worker = useIngestFiles('gas-ingest-worker-');
  const here = useIngestFiles('gas-ingest-here-');
  const now = new Date('2026-11-27T12:00:00Z');
  const azure = fs
    .readdirSync(AZUREHOUND)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(AZUREHOUND, f));
  const both = async (file: string, name = path.basename(file)) => {
    const a = await ingestPath(worker.store(), file, { now, displayName: name });
    const b = await ingestPath(here.store(), file, { now, displayName: name, convertInWorker: false });
    return [a, b] as const;
  };

  it('writes the same graph and reports the same results for SharpHound and AzureHound files', async () => {
    for (const file of [...TESTLAB_ALL_FILES, ...azure]) {
      const [a, b] = await both(file);
      expect(a).toEqual(b);
    }
    // The files went through a worker, which stays for the next file.
    expect(idleConversionWorkers()).toBe(1);
    const [ga, gb] = [await dumpGraph(worker.db()), await dumpGraph(here.db())];
    expect(ga.nodes.size).toBeGreaterThan(100);
    expect(ga.edges.size).toBeGreaterThan(100);
    expect([...ga.nodes.entries()].sort()).toEqual([...gb.nodes.entries()].sort());
    expect([...ga.edges.entries()].sort()).toEqual([...gb.edges.entries()].sort());
  });

  it('reads data-first files that come without a hint (gzip, zip entries): items seen before meta are spooled', async () => {
    const users = dataFirst(fs.readFileSync(path.join(TESTLAB, 'users.json')));
    const groups = dataFirst(fs.readFileSync(path.join(TESTLAB, 'groups.json')));
    const gz = worker.write('users.json.gz', zlib.gzipSync(users));
    const archive = worker.write(
      'collection.zip',
      await zip([
        ['groups.json', groups],
        ['users.json', users],
      ]),
    );
    for (const file of [gz, archive]) {
      const [a, b] = await both(file);
      expect(a.errors).toEqual([]);
      expect(a).toEqual(b);
    }
    expect(await worker.nodeCount()).toBe(await here.nodeCount());
  });

  it('refuses a bad file with the message of the calling thread and writes nothing of it', async () => {
    const user = (id: string) => ({ ObjectIdentifier: id, Properties: { name: id }, Aces: [] });
    const many = Array.from({ length: 30_000 }, (_, i) => user(`S-1-5-21-77-${i}`));
    const bodies: Record<string, string> = {
      // malformed after more than a batch of good items: the first batches were written in the transaction
      'broken.json': `{"meta": {"type": "users", "version": 6}, "data": [${many.map((u) => JSON.stringify(u)).join(',')}, {"ObjectIdentifier": }]}`,
      'unreadable-item.json': JSON.stringify({ meta: { type: 'users' }, data: [...many, { Properties: { name: 'no id' } }] }),
      'not-an-object.json': JSON.stringify({ data: [...many, 42], meta: { type: 'users' } }),
      'no-meta.json': JSON.stringify({ data: [user('S-1-5-21-77-y')] }),
      'bad-type.json': JSON.stringify({ data: [], meta: { type: 'printers' } }),
    };
    const before = [await worker.nodeCount(), await here.nodeCount()];
    const messages: string[] = [];
    for (const [name, body] of Object.entries(bodies)) {
      const [a, b] = await both(worker.write(name, body));
      expect(a.files).toEqual([]);
      expect(a.errors.map((e) => e.message)).toEqual(b.errors.map((e) => e.message));
      expect(a.errors[0]!.message).toMatch(new RegExp(`^${name.replace('.', '\\.')}: `));
      messages.push(a.errors[0]!.message);
    }
    expect(messages.join('\n')).toMatch(/data item 30000: an object has no ObjectIdentifier/);
    expect(messages.join('\n')).toMatch(/data item 30000: the item is not a JSON object/);
    expect(messages.join('\n')).toMatch(/malformed JSON: .* at line 1, byte \d+/);
    expect([await worker.nodeCount(), await here.nodeCount()]).toEqual(before);
    expect(await worker.store().nodeByObjectId('S-1-5-21-77-1')).toBeUndefined();
    // The worker that refused a file is replaced: the next file lands.
    const [ok] = await both(worker.write('ok.json', JSON.stringify({ meta: { type: 'users' }, data: [user('S-1-5-21-77-ok')] })));
    expect(ok.errors).toEqual([]);
    expect(await worker.store().nodeByObjectId('S-1-5-21-77-OK')).toBeDefined();
  });

  it('fails with an IngestError when the input breaks mid-file, and writes nothing of it', async () => {
    const users = fs.readFileSync(path.join(TESTLAB, 'users.json'));
    const before = await worker.nodeCount();
    const input = new Readable({ read() {} });
    input.push(users.subarray(0, users.length >> 1));
    setImmediate(() => input.destroy(new Error('connection reset by peer')));
    const failed = ingestStream(worker.store(), 'cut.json', input, { now });
    await expect(failed).rejects.toBeInstanceOf(IngestError);
    await expect(failed).rejects.toThrow(/^cut\.json: connection reset by peer/);
    expect(await worker.nodeCount()).toBe(before);
  });

  it('cuts the first batches small however large the pieces of input it is handed (the database starts early)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-worker-batches-'));
    try {
      const file = generateSharpHound(dir, { users: 800, seed: 3 }).files.find((f) => f.endsWith('users.json'))!;
      const users = fs.readFileSync(file);
      expect(users.length).toBeGreaterThan(1 << 20); // more than one read of a file, handed over in one piece below
      const store = worker.store();
      const batches: number[] = [];
      const rows = (b: PreparedBatch) =>
        b.nodes.reduce((n, s) => n + s.objectids.length, 0) + b.edges.reduce((n, s) => n + s.start.length, 0);
      // The real store, its writer watched: how many rows each batch the worker prepared holds.
      const watched: GraphStore = Object.assign(Object.create(store) as GraphStore, {
        write: <T>(fn: (w: GraphWriter) => Promise<T>) =>
          store.write((w) =>
            fn({ ...w, writePrepared: w.writePrepared && ((b: PreparedBatch) => (batches.push(rows(b)), w.writePrepared!(b))) }),
          ),
      });
      // With its meta known (as a file's is, read from its end), items are converted as they arrive, not spooled.
      const meta = tailMeta(file);
      expect(meta).toMatchObject({ type: 'users' });
      const r = await ingestStream(watched, 'users.json', Readable.from([users]), { now, metaHint: meta });
      expect(r.objects).toBe(800);
      expect(batches.length).toBeGreaterThan(2);
      // The first batch is cut once it holds its share (2,000 rows, then twice that…), not at the end of the piece.
      expect(batches[0]).toBeLessThan(4_000);
      expect(batches[0]).toBeLessThan(batches[1]!);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('removes what the worker spooled when the file fails on the writer side', async () => {
    // Data-first without a hint: every item waits in the worker's spool until meta, which never comes.
    const spools = () => new Set(fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith('gas-spool-')));
    const before = spools();
    const users = Buffer.from(dataFirst(fs.readFileSync(path.join(TESTLAB, 'users.json'))));
    const input = new Readable({ read() {} });
    input.push(users.subarray(0, users.length - 200));
    let spooled = false;
    const watch = setInterval(() => {
      if ([...spools()].some((d) => !before.has(d)) && !spooled) {
        spooled = true;
        input.destroy(new Error('upload cut'));
      }
    }, 5);
    try {
      await expect(ingestStream(worker.store(), 'cut-while-spooling.json', input, { now })).rejects.toThrow(/upload cut/);
    } finally {
      clearInterval(watch);
    }
    expect(spooled).toBe(true);
    // The worker is told to stop and removes its spool before it is ended (other test files may spool meanwhile:
    // only the directories that are new and stay count).
    for (let i = 0; i < 100 && [...spools()].some((d) => !before.has(d)); i++) await new Promise((r) => setTimeout(r, 50));
    expect([...spools()].filter((d) => !before.has(d))).toEqual([]);
  });

  it('fails a file whose conversion outgrows the worker heap cap, alone: nothing of it written', async () => {
    // Objects with very many properties are the most memory per input byte (each one a hash table entry): within
    // every size bound, 24 users of 25,000 properties (~3.5 MB) need more than 64 MiB once parsed and converted
    // (8 of them fit).
    const props = Object.fromEntries(Array.from({ length: 25_000 }, (_, k) => [`p${k}`, k]));
    const wide = Array.from({ length: 24 }, (_, i) => ({ ObjectIdentifier: `S-1-5-21-78-${i}`, Properties: { name: `W${i}`, ...props } }));
    const file = worker.write('wide.json', { data: wide, meta: { type: 'users', version: 6 } });
    const small = worker.write('small.json', {
      meta: { type: 'users' },
      data: wide.slice(0, 1).map((u) => ({ ...u, Properties: { name: 'small' } })),
    });
    const limits = { conversionHeapMb: 64 };
    const before = await worker.nodeCount();
    // The cap leaves room for an ordinary file.
    expect((await ingestPath(worker.store(), small, { now, limits })).errors).toEqual([]);
    const r = await ingestPath(worker.store(), file, { now, limits });
    expect(r.files).toEqual([]);
    expect(r.errors.map((e) => e.message)).toEqual([
      'wide.json: converting it needs more than the 64 MiB of memory a file may use (objects with very many properties or edges); nothing of it was written',
    ]);
    expect(await worker.nodeCount()).toBe(before + 1);
    expect(await worker.store().nodeByObjectId('S-1-5-21-78-5')).toBeUndefined();
  }, 60_000);

  it('hands OpenGraph files to the calling thread (their edges are resolved in the database)', async () => {
    const graph = { graph: { nodes: [{ id: 'A-1', kinds: ['Thing'], properties: { name: 'a' } }], edges: [] } };
    const [a, b] = await both(worker.write('og.json', JSON.stringify(graph)));
    expect(a.errors).toEqual([]);
    expect(a).toEqual(b);
    expect(a.files[0]).toMatchObject({ type: 'opengraph', nodes: 1 });
  });
});
