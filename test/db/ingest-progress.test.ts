import fs from 'node:fs';
import zlib from 'node:zlib';
import { generateSharpHound } from '../../src/generate/sharphound';
import type { IngestProgress } from '../../src/ingest/ingest-types';
import { ingestPath } from '../../src/ingest/ingest-path';
import { useIngestFiles } from '../helpers/ingest-files';
import { zip } from '../helpers/zip';

/**
 * What `gas ingest`'s progress bar is fed (PathOptions.progress): the bytes of the file read of its size, and the
 * objects and edges written, for plain, gzip and zip files, in the worker and on the calling thread.
 */
describe('ingest progress', () => {
  const f = useIngestFiles('gas-progress-');
  let users: Buffer;
  let groups: Buffer;
  let bigUsers: Buffer;
  const generated = (users: number, aces: number, name: string) => {
    const files = generateSharpHound(`${f.dir()}/${users}`, { users, seed: 3, acesPerObject: aces }).files;
    return fs.readFileSync(files.find((p) => p.endsWith(`${name}.json`))!);
  };
  beforeAll(() => {
    // Several batches (the first ones hold 2,000 rows).
    users = generated(3000, 4, 'users');
    groups = generated(3000, 4, 'groups');
    // More bytes (~12 MB) than are fed ahead of the conversion worker (4 MB), so reading and writing overlap.
    bigUsers = generated(6000, 28, 'users');
  });

  const run = async (file: string, convertInWorker = true) => {
    const seen: IngestProgress[] = [];
    const r = await ingestPath(f.store(), file, { convertInWorker, progress: (p) => seen.push({ ...p }) });
    expect(r.errors).toEqual([]);
    return { seen, result: r, last: seen.at(-1)! };
  };

  const rising = (seen: IngestProgress[], key: 'bytesRead' | 'objects' | 'edges') =>
    seen.every((p, i) => i === 0 || p[key] >= seen[i - 1]![key]);

  it.each([
    ['in the conversion worker', true],
    ['on the calling thread', false],
  ])('a plain file, %s: bytes up to its size, objects and edges as written', async (_, worker) => {
    const body = worker ? bigUsers : users;
    const file = f.write(`users-${worker}.json`, body);
    const { seen, result, last } = await run(file, worker);
    const [written] = result.files;
    expect(last).toEqual({
      file: `users-${worker}.json`,
      bytesRead: body.length,
      bytesTotal: body.length,
      objects: written!.objects,
      edges: written!.edges,
    });
    expect(written!.objects).toBe(worker ? 6000 : 3000);
    for (const key of ['bytesRead', 'objects', 'edges'] as const) expect(rising(seen, key)).toBe(true);
    // Reported along the way, not only at the end: some update has part of the file read and part of it written.
    expect(seen.some((p) => p.bytesRead < p.bytesTotal && p.objects > 0)).toBe(true);
  });

  it('a gzip file: the compressed bytes read of its size', async () => {
    const gz = zlib.gzipSync(users);
    const { last, result } = await run(f.write('users.json.gz', gz));
    expect(last).toMatchObject({ bytesRead: gz.length, bytesTotal: gz.length, objects: result.files[0]!.objects });
  });

  it('a zip: entries named, counts added up over them, the archive read to its size', async () => {
    const archive = await zip([
      ['users.json', users],
      ['groups.json', groups],
    ]);
    const { seen, last, result } = await run(f.write('collection.zip', archive));
    expect(result.files.map((r) => r.file)).toEqual(['collection.zip:users.json', 'collection.zip:groups.json']);
    expect(new Set(seen.map((p) => p.file))).toEqual(new Set(['collection.zip:users.json', 'collection.zip:groups.json']));
    expect(last).toMatchObject({
      bytesRead: archive.length,
      bytesTotal: archive.length,
      objects: result.files.reduce((n, r) => n + r.objects, 0),
      edges: result.files.reduce((n, r) => n + r.edges, 0),
    });
    expect(rising(seen, 'bytesRead') && rising(seen, 'objects')).toBe(true);
  });

  it('a refused file still ends its bytes', async () => {
    const seen: IngestProgress[] = [];
    const bad = f.write('broken.json', '{"meta": {"type": "users"}, "data": [{"ObjectIdentifier": ');
    const r = await ingestPath(f.store(), bad, { progress: (p) => seen.push(p) });
    expect(r.errors).toHaveLength(1);
    expect(seen.at(-1)).toMatchObject({ bytesRead: fs.statSync(bad).size, objects: 0 });
  });
});
