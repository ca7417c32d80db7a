import { WRITE_BEHIND_EDGES } from '../../src/analysis/derived-writer';
import { ANALYSIS_STEPS, runAnalysis } from '../../src/analysis/run';
import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { createTestDb, testLog, testUrl, type TestDb } from '../helpers/db';
import { FaultProxy } from '../helpers/fault-proxy';
import { derived, inDomain, load } from '../unit/analysis-graph';

/**
 * The database connection drops while analysis writes behind its rules (a server restart, a failover): the run
 * fails with the database's error, no write of it outlives the failure as an unhandled rejection, the previous
 * results stay, and the next run, once the database is back, completes.
 */
describe('analysis when its connection drops mid-write', () => {
  let t: TestDb;
  let proxy: FaultProxy;
  let db: Database;
  const D = 'S-1-5-21-8-8-8';
  const owned = WRITE_BEHIND_EDGES + 5_000;
  const targets = Array.from({ length: owned }, (_, i) => `T${i}`);
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);

  beforeAll(async () => {
    t = await createTestDb();
    proxy = await FaultProxy.start(testUrl());
    db = new Database(proxy.urlFor(testUrl()), { log: testLog(), searchPath: t.schema, max: 2 });
    await load(t.db, {
      nodes: [[D, 'Domain', { domainsid: D, name: 'EIGHT.LOCAL', collected: true }], ...inDomain(D).users('OWNER', ...targets)],
      edges: targets.map((x) => `OWNER OwnsRaw ${x}`),
    });
    process.on('unhandledRejection', onUnhandled);
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    proxy.restore();
    await db.close();
    await proxy.close();
    await t.drop();
  });

  it('fails the run, keeps the previous results, and the next run completes', async () => {
    await runAnalysis(new PgGraphStore(db), { now: new Date('2026-01-01T00:00:00Z') });
    const before = await derived(t.db, ['Owns']);
    expect(before).toHaveLength(owned);

    const original = [...ANALYSIS_STEPS];
    // Right after the owns step, whose 25,000 edges started a write behind it: the connection goes.
    ANALYSIS_STEPS.splice(original.findIndex((s) => s.name === 'ownsAndWriteOwner') + 1, 0, () => proxy.cut());
    try {
      // The database's own error (503, retry later), from the write that was running behind the rules.
      await expect(runAnalysis(new PgGraphStore(db), { now: new Date('2026-02-01T00:00:00Z') })).rejects.toMatchObject({ status: 503 });
    } finally {
      ANALYSIS_STEPS.splice(0, ANALYSIS_STEPS.length, ...original);
      proxy.restore();
    }
    await new Promise((resolve) => setTimeout(resolve, 300)); // a write left running would fail or land meanwhile
    expect(unhandled).toEqual([]);
    expect(await derived(t.db, ['Owns'])).toEqual(before);

    await runAnalysis(new PgGraphStore(db), { now: new Date('2026-03-01T00:00:00Z') });
    expect(await derived(t.db, ['Owns'])).toEqual(before);
  });
});
