import { ANALYSIS_STEPS, runAnalysis } from '../../src/analysis/run';
import { WRITE_BEHIND_EDGES } from '../../src/analysis/derived-writer';
import { PgGraphStore } from '../../src/graph/pg/store';
import type { GraphStore, GraphWriter } from '../../src/graph/store';
import { derived, inDomain, load, useAnalysis } from '../unit/analysis-graph';

/**
 * Analysis writes its derived edges while its later rules still run (the database inserts one rule's edges while
 * this thread computes the next), all in its one transaction: a failure anywhere leaves the graph as it was.
 */
describe('analysis writes behind its rules', () => {
  const a = useAnalysis();
  const D = 'S-1-5-21-7-7-7';
  const owned = WRITE_BEHIND_EDGES + 5_000;
  const targets = Array.from({ length: owned }, (_, i) => `T${i}`);

  beforeAll(async () => {
    await load(a.db(), {
      nodes: [[D, 'Domain', { domainsid: D, name: 'SEVEN.LOCAL', collected: true }], ...inDomain(D).users('OWNER', ...targets)],
      edges: targets.map((t) => `OWNER OwnsRaw ${t}`),
    });
  });

  /** The store, with a log of the steps run and the writes made, in the order they happened. */
  function observed(store: GraphStore, log: string[]): GraphStore {
    return new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'write') return Reflect.get(target, key, receiver) as unknown;
        return <T>(fn: (w: GraphWriter) => Promise<T>) =>
          target.write((w) =>
            fn({
              ...w,
              insertEdgesByNodeId: (edges, opts) => {
                log.push('write edges');
                return w.insertEdgesByNodeId(edges, opts);
              },
            }),
          );
      },
    });
  }

  it('starts writing the edges of a rule before the later rules end, and writes them all', async () => {
    const log: string[] = [];
    const original = [...ANALYSIS_STEPS];
    ANALYSIS_STEPS.forEach((step, i) => {
      ANALYSIS_STEPS[i] = async (g, c, o) => {
        log.push(`step ${step.name}`);
        await step(g, c, o);
      };
    });
    try {
      await runAnalysis(observed(new PgGraphStore(a.db()), log));
    } finally {
      ANALYSIS_STEPS.splice(0, ANALYSIS_STEPS.length, ...original);
    }
    const firstWrite = log.indexOf('write edges');
    const lastStep = log.lastIndexOf(`step ${original[original.length - 1]!.name}`);
    expect(firstWrite).toBeGreaterThan(log.indexOf('step ownsAndWriteOwner'));
    expect(firstWrite).toBeLessThan(lastStep);
    expect(await derived(a.db(), ['Owns'])).toHaveLength(owned);
    // The well-known groups analysis creates got their edges too (written by id once created).
    const groups = await a.db().query<{ n: string }>(
      `select count(*) as n from graph_edges e join graph_nodes s on s.id = e.start_id
       where s.objectid = 'SEVEN.LOCAL-S-1-5-11'`,
    );
    expect(Number(groups[0]!.n)).toBeGreaterThan(0);
  });

  // The first derived edge goes in a write behind the rules, the last in the final write.
  it.each([
    ['behind the rules', 'T0'],
    ['at the end', `T${owned - 1}`],
  ])('fails as a whole when a write %s fails: the previous results stay, nothing new lands', async (_when, refused) => {
    await runAnalysis(new PgGraphStore(a.db()));
    const before = await derived(a.db(), ['Owns']);
    expect(before).toHaveLength(owned);
    // A real failure of the database, part-way: the insert of one derived edge is refused by a trigger.
    await a.db().query(`create function refuse_owns() returns trigger language plpgsql as $$
      begin
        if new.end_id = (select id from graph_nodes where objectid = '${refused}') then raise exception 'refused for the test'; end if;
        return new;
      end $$`);
    await a.db().query(`create trigger refuse_owns before insert on graph_edges for each row execute function refuse_owns()`);
    try {
      await expect(runAnalysis(new PgGraphStore(a.db()))).rejects.toThrow();
    } finally {
      await a.db().query(`drop trigger refuse_owns on graph_edges`);
      await a.db().query(`drop function refuse_owns()`);
    }
    expect(await derived(a.db(), ['Owns'])).toEqual(before);
    await runAnalysis(new PgGraphStore(a.db()));
    expect(await derived(a.db(), ['Owns'])).toEqual(before);
  });

  it('leaves the graph as it was when a rule fails while a write runs behind it, and writes nothing after', async () => {
    const owns = () =>
      a
        .db()
        .query<{ e: string }>(
          `select s.objectid || ' ' || t.objectid || ' ' || (e.properties ->> 'lastseen') as e
           from graph_edges e join graph_nodes s on s.id = e.start_id join graph_nodes t on t.id = e.end_id
           where e.kind_id = (select id from graph_kinds where name = 'Owns') order by 1`,
        )
        .then((rows) => rows.map((r) => r.e));
    await runAnalysis(new PgGraphStore(a.db()), { now: new Date('2026-01-01T00:00:00Z') });
    const before = await owns();
    expect(before).toHaveLength(owned);
    expect(before.every((e) => e.endsWith(' 2026-01-01T00:00:00.000Z'))).toBe(true); // the run's time, added as written
    const original = [...ANALYSIS_STEPS];
    // Right after the owns step, whose 25,000 edges started a write behind it.
    ANALYSIS_STEPS.splice(original.findIndex((s) => s.name === 'ownsAndWriteOwner') + 1, 0, () => {
      throw new Error('a rule failed for the test');
    });
    try {
      await expect(runAnalysis(new PgGraphStore(a.db()), { now: new Date('2026-02-01T00:00:00Z') })).rejects.toThrow(
        'a rule failed for the test',
      );
    } finally {
      ANALYSIS_STEPS.splice(0, ANALYSIS_STEPS.length, ...original);
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // a write left running would land meanwhile
    expect(await owns()).toEqual(before);
  });
});
