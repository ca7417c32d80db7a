import zlib from 'node:zlib';
import request from 'supertest';
import { useTestApp } from '../helpers/app';
import { inDomain, sharphound, uploadJob, useUploads } from '../helpers/upload';
import { zip } from '../helpers/zip';

/**
 * Characters PostgreSQL cannot store in text or jsonb (NUL, and UTF-16 surrogates without their pair) in collector
 * files: NUL is removed, a lone surrogate becomes U+FFFD, each counted in the file's report; the file is ingested.
 * One NUL used to fail the whole file with "unexpected database error".
 */
describe('collector files with characters PostgreSQL cannot store', () => {
  const t = useTestApp();
  const up = useUploads(t);
  const props = inDomain('REPAIR.LOCAL', 'S-1-5-21-7-7-7');
  // JSON.stringify writes them as collectors do, as escapes: "\u0000", and "\ud83d" for a high surrogate alone.
  const file = (prefix: string) =>
    sharphound('users', [
      {
        ObjectIdentifier: `S-1-5-21-7-7-7-${prefix}1`,
        Properties: props(`ANN${prefix}`, { description: 'nul\u0000here', title: 'lone \uD83D surrogate', ['k\u0000ey']: 'v' }),
        Aces: [],
      },
      {
        ObjectIdentifier: `S-1-5-21-7-7-7-${prefix}2`,
        Properties: props(`BOB\u0000${prefix}`, { description: 'pair 😀 is fine' }),
        Aces: [],
      },
    ]);
  const adminGet = (path: string) => request(t.app).get(path).set('Authorization', `Bearer ${t.adminJwt}`);

  const check = async (id: number, prefix: string, parts = 1) => {
    const job = await up.job(id);
    expect(job.status).toBe(2);
    const tasks = await up.tasks(id);
    const results = tasks.flatMap((task: { result: unknown }) => task.result as Record<string, unknown>[]);
    expect(results).toHaveLength(parts);
    for (const r of results) expect(r).toMatchObject({ objects: 2, textRepairs: { nulRemoved: 3, surrogatesReplaced: 1 } });
    const ann = await adminGet(`/api/v2/users/S-1-5-21-7-7-7-${prefix}1`);
    expect(ann.status).toBe(200);
    expect(ann.body.data.props).toMatchObject({ description: 'nulhere', title: 'lone \uFFFD surrogate', key: 'v' });
    const bob = await adminGet(`/api/v2/users/S-1-5-21-7-7-7-${prefix}2`);
    expect(bob.body.data.props).toMatchObject({ name: `BOB${prefix}@REPAIR.LOCAL`, description: 'pair 😀 is fine' });
  };

  it('repairs and counts them in a JSON file, and ingests it', async () => {
    const id = await uploadJob(t.app, up.token, [['users.json', file('10')]]);
    await t.services.datapipe.drain();
    await check(id, '10');
  });

  it('does the same for a data-first file (items spooled before meta) and inside a zip', async () => {
    const { meta, data } = JSON.parse(file('20')) as { meta: unknown; data: unknown };
    const dataFirst = JSON.stringify({ data, meta });
    // Gzip: the end of the file cannot be read first, so its items wait in the spool until "meta" comes.
    const id = await uploadJob(t.app, up.token, [['users.json.gz', zlib.gzipSync(dataFirst), 'application/gzip']]);
    await t.services.datapipe.drain();
    await check(id, '20');
    const archive = await zip([['users.json', file('30')]]);
    const zipped = await uploadJob(t.app, up.token, [['collection.zip', archive, 'application/zip']]);
    await t.services.datapipe.drain();
    await check(zipped, '30');
  });

  it('repairs them in OpenGraph files too', async () => {
    const og = JSON.stringify({
      graph: {
        nodes: [{ id: 'OG-\u0000-1', kinds: ['Thing'], properties: { name: 'x\u0000y', note: 'a \uD83D b' } }],
        edges: [],
      },
    });
    const id = await uploadJob(t.app, up.token, [['og.json', og]]);
    await t.services.datapipe.drain();
    const job = await up.job(id);
    expect(job.status).toBe(2);
    const [task] = await up.tasks(id);
    expect(task.result[0]).toMatchObject({ textRepairs: { nulRemoved: 2, surrogatesReplaced: 1 } });
  });
});
