import path from 'node:path';
import { ruleSeedMatches } from '../../src/analysis/rule-seeds';
import { DEFAULT_TIER_ZERO_SEEDS } from '../../src/analysis/steps/tier-zero';
import { signed, useTestApp } from '../helpers/app';
import { TESTLAB } from '../helpers/fixtures';
import { sharphound, uploadJob, useUploads } from '../helpers/upload';

/** Many users of one made-up domain: a file whose ingest is still running when the test ends its worker. */
const users = (n: number) =>
  sharphound(
    'users',
    Array.from({ length: n }, (_, i) => ({
      ObjectIdentifier: `S-1-5-21-9-9-9-${1000 + i}`,
      Properties: { name: `WORKER${i}@KILLED.LOCAL`, domain: 'KILLED.LOCAL', domainsid: 'S-1-5-21-9-9-9' },
      Aces: [],
    })),
  );

/** Polls `ready` every few ms for at most a minute. */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 60_000; Date.now() < end;) {
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('timed out');
}

describe('the data pipeline worker', () => {
  const t = useTestApp();
  const uploads = useUploads(t);
  const thread = () => t.infra.pipelineThread!;
  const count = async (sql: string) => (await t.testDb.db.query<{ n: number }>(sql))[0]!.n;

  it('runs uploaded files and analysis off the serving thread', () => {
    expect(t.infra.pipelineThread).toBeDefined();
  });

  it('a worker that dies while it ingests fails the file by name, writes nothing of it, and the next job ingests', async () => {
    const id = await uploadJob(t.app, uploads.token, [['many-users.json', users(5000)]]);
    const drained = t.services.datapipe.drain();
    await until(() => thread().busy());
    await thread().kill();
    await drained;
    const job = await uploads.job(id);
    expect(job).toMatchObject({ status: 5, failed_files: 1 });
    expect(job.status_message).toMatch(/many-users\.json: the file could not be ingested \(the pipeline worker stopped before it finished/);
    expect(await count(`select count(*)::int as n from graph_nodes where objectid like 'S-1-5-21-9-9-9-%'`)).toBe(0);
    expect(await count(`select count(*)::int as n from ingest_file_parts`)).toBe(0);

    // A new worker takes the next job.
    const again = await uploadJob(t.app, uploads.token, [['many-users.json', users(50)]]);
    await t.services.datapipe.drain();
    expect(await uploads.job(again)).toMatchObject({ status: 2, failed_files: 0 });
    expect(await count(`select count(*)::int as n from graph_nodes where objectid like 'S-1-5-21-9-9-9-%'`)).toBe(50);
  });

  it('a worker that dies during analysis fails the job saying so, and analysis asked again completes', async () => {
    const id = await uploadJob(t.app, uploads.token, [path.join(TESTLAB, 'users.json')]);
    const drained = t.services.datapipe.drain();
    await until(async () => (await t.services.datapipe.filesOfJob(id))[0]?.status === 2 && thread().busy());
    await thread().kill();
    await drained;
    const job = await uploads.job(id);
    expect(job.status).toBe(5);
    expect(job.status_message).toMatch(/^analysis failed: the pipeline worker stopped before it finished/);
    // The run's transaction rolled back with the worker's connection: the last result is still the earlier run's.
    const before = (await t.services.datapipe.status()).lastAnalysisResult as { ms: number };

    const res = await signed(t.app, uploads.token, 'PUT', '/api/v2/analysis');
    expect(res.status).toBeLessThan(300);
    await t.services.datapipe.drain();
    const after = (await t.services.datapipe.status()).lastAnalysisResult as { ms: number };
    expect(after).toMatchObject({ nodesUpdated: expect.any(Number) });
    expect(after).not.toEqual(before);
    expect(await uploads.job(id)).toMatchObject({ status: 5 });
  });

  it("matches the zones' rule seeds there as this thread would", async () => {
    const id = await uploadJob(t.app, uploads.token, [path.join(TESTLAB, 'groups.json'), path.join(TESTLAB, 'domains.json')]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2 });
    const rules = [[...DEFAULT_TIER_ZERO_SEEDS], [], [DEFAULT_TIER_ZERO_SEEDS[0]!]];
    const there = await thread().matchRules(rules);
    expect(there[0]!.length).toBeGreaterThan(0);
    expect(there).toEqual(await ruleSeedMatches(t.infra.graphStore, rules));
  });
});
