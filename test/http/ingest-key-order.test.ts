import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signed, useTestApp } from '../helpers/app';
import { runCli } from '../helpers/cli';
import { dataFirst, writeDataFirstVariants } from '../helpers/data-first';
import { comparable, dumpGraph, GOLDEN_INPUT, TESTLAB, type GoldenGraph } from '../helpers/fixtures';
import { uploadJob, useUploads } from '../helpers/upload';
import { zip } from '../helpers/zip';

/**
 * SharpHound writes "data" before "meta". Every vendored fixture is ingested in both key orders, over REST (plain
 * files and a zip) and through `gas ingest`, and must give the same graph; the data-first path once crashed the
 * process (a descriptor closed twice).
 */
const FILES = [...GOLDEN_INPUT, path.join(TESTLAB, 'deleted.json')];

const plain = (g: GoldenGraph) => ({
  nodes: [...g.nodes].map(([id, n]) => [id, n.kinds, comparable(n.properties)]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  edges: [...g.edges].map(([k, p]) => [k, comparable(p)]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
});

describe('data-first files (as SharpHound writes them) ingest like meta-first ones', () => {
  const t = useTestApp({ maxUploadBytes: 8 * 1024 * 1024 });
  const uploads = useUploads(t);
  let dir: string;
  let variants: string[];
  let expected: ReturnType<typeof plain>;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-data-first-'));
    variants = writeDataFirstVariants(FILES, dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const clear = () => t.testDb.db.query('truncate graph_edges, graph_nodes');

  it('every variant really is data first', () => {
    for (const v of variants) expect(fs.readFileSync(v, 'utf8')).toMatch(/^\{"data":\[/);
  });

  it('over REST, one file per request', async () => {
    const first = await uploadJob(t.app, uploads.token, FILES);
    await t.services.datapipe.drain();
    expect(await uploads.job(first)).toMatchObject({ status: 2, failed_files: 0 });
    expected = plain(await dumpGraph(t.testDb.db));
    expect(expected.nodes.length).toBeGreaterThan(100);
    await clear();
    const second = await uploadJob(t.app, uploads.token, variants);
    await t.services.datapipe.drain();
    expect(await uploads.job(second)).toMatchObject({ status: 2, failed_files: 0 });
    expect(plain(await dumpGraph(t.testDb.db))).toEqual(expected);
  });

  it('over REST, as one zip (several times, as the crash was intermittent)', async () => {
    const archive = await zip(variants.map((v) => [path.basename(v), fs.readFileSync(v)]));
    for (let i = 0; i < 3; i++) {
      await clear();
      const id = await uploadJob(t.app, uploads.token, [['collection.zip', archive, 'application/zip']]);
      await t.services.datapipe.drain();
      expect(await uploads.job(id)).toMatchObject({ status: 2, failed_files: 0 });
      expect(plain(await dumpGraph(t.testDb.db))).toEqual(expected);
    }
  });

  it('through gas ingest', async () => {
    await clear();
    // With analysis, as the REST jobs above ran it.
    const res = await runCli(['ingest', ...variants, '--json'], { DATABASE_URL: t.testDb.url });
    expect(res.stderr).not.toMatch(/EBADF|Error/);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(variants.length + 1);
    expect(plain(await dumpGraph(t.testDb.db))).toEqual(expected);
  }, 60_000);

  it('hostile files over REST fail one by one, named, and the server keeps serving', async () => {
    const users = fs.readFileSync(path.join(TESTLAB, 'users.json'));
    const cut = Buffer.from(dataFirst(users)).subarray(0, 20_000);
    const id = await uploadJob(t.app, uploads.token, [
      ['cut-short.json', cut],
      ['empty-archive.zip', await zip([['readme.txt', 'no json here']]), 'application/zip'],
      [
        'huge-string.json',
        `{"data":[{"ObjectIdentifier":"S-1-5-21-7-7-7-1","Properties":{"description":"${'x'.repeat(1_100_000)}"}}],"meta":{"type":"users"}}`,
      ],
      ['twice.json', '{"data":[],"meta":{"type":"users"},"meta":{"type":"users"}}'],
      ['good.json', dataFirst(users)],
    ]);
    await t.services.datapipe.drain();
    const job = await uploads.job(id);
    expect(job).toMatchObject({ status: 8, total_files: 5, failed_files: 4 });
    expect(job.status_message).toMatch(/cut-short\.json: malformed JSON: the file ends in the middle of a value at line 1, byte 20000/);
    expect(job.status_message).toMatch(/empty-archive\.zip: archive holds no JSON files/);
    expect(job.status_message).toMatch(
      /huge-string\.json: malformed JSON: a string is longer than the limit of 1048576 bytes at line 1, byte \d+/,
    );
    expect(job.status_message).toMatch(/twice\.json: malformed JSON: "meta" appears twice/);
    expect((await signed(t.app, uploads.token, 'GET', '/api/v2/self')).status).toBe(200);
  });
});
