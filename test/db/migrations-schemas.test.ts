import { createTestDb, type TestDb } from '../helpers/db';

/**
 * Several of the service's schemas in one database (deployments side by side, test runs, a benchmark and its
 * baseline) get the same indexes. The node search's trigram index once existed only in the schema that happened to
 * create pg_trgm: the others searched by scanning, and the ingest benchmark compared our writes (with the index) to
 * a COPY baseline without it.
 */
describe('migrations in several schemas of one database', () => {
  let dbs: TestDb[] = [];
  afterEach(async () => {
    for (const d of dbs) await d.drop().catch(() => undefined);
    dbs = [];
  });

  async function indexes(d: TestDb): Promise<string[]> {
    const rows = await d.db.query<{ indexname: string }>(
      `select indexname from pg_indexes where schemaname = $1 and tablename = 'graph_nodes' order by 1`,
      [d.schema],
    );
    return rows.map((r) => r.indexname);
  }

  it('gives every schema the same graph indexes, the trigram index included where pg_trgm exists', async () => {
    dbs = [await createTestDb(), await createTestDb(), await createTestDb()];
    const [a, b, c] = await Promise.all(dbs.map(indexes));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a).toContain('graph_nodes_name_trgm_idx');
  });

  it("keeps the other schemas' trigram index when one schema is dropped", async () => {
    dbs = [await createTestDb(), await createTestDb()];
    const [first, second] = dbs;
    await first!.drop();
    dbs = [second!];
    expect(await indexes(second!)).toContain('graph_nodes_name_trgm_idx');
    // And the index serves a contains-search on that schema.
    await second!.db.query(`insert into graph_nodes (objectid, kind_ids, properties) values ('S-1', '{}', '{"name": "ALICE@X"}')`);
    const found = await second!.db.query<{ objectid: string }>(`select objectid from graph_nodes where lower(name) like '%lic%'`);
    expect(found.map((r) => r.objectid)).toEqual(['S-1']);
  });

  it('writes each edge into three indexes: identity and outgoing in one unique index, incoming, and the id', async () => {
    dbs = [await createTestDb()];
    const d = dbs[0]!;
    const rows = await d.db.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where schemaname = $1 and tablename = 'graph_edges' order by 1`,
      [d.schema],
    );
    expect(rows.map((r) => r.indexname)).toEqual(['graph_edges_identity_out_idx', 'graph_edges_in_idx', 'graph_edges_pkey']);
    expect(rows[0]!.indexdef).toMatch(/UNIQUE INDEX .* \(start_id, kind_id, end_id\) INCLUDE \(id\)/);
    // The merge's ON CONFLICT (start_id, end_id, kind_id) still finds its unique index: a repeated edge stays one.
    await d.db.query(`insert into graph_nodes (id, objectid, kind_ids) values (1, 'A', '{}'), (2, 'B', '{}')`);
    await d.db.query(`insert into graph_kinds (id, name) values (1, 'MemberOf') on conflict do nothing`);
    const upsert = `insert into graph_edges as e (start_id, end_id, kind_id, properties) values (1, 2, 1, $1::jsonb)
      on conflict (start_id, end_id, kind_id) do update set properties = e.properties || excluded.properties`;
    await d.db.query(upsert, ['{"a": 1}']);
    await d.db.query(upsert, ['{"b": 2}']);
    expect(await d.db.query(`select properties from graph_edges`)).toEqual([{ properties: { a: 1, b: 2 } }]);
  });

  it('draws edge ids 1,000 at a time per session, each session ascending, no two edges alike', async () => {
    dbs = [await createTestDb()];
    const d = dbs[0]!;
    const [seq] = await d.db.query<{ cache: number }>(`select seqcache::int as cache from pg_sequence where seqrelid = $1::regclass`, [
      `${d.schema}.graph_edges_id_seq`,
    ]);
    expect(seq!.cache).toBe(1000);
    await d.db.query(`insert into graph_nodes (id, objectid, kind_ids) values (1, 'A', '{}'), (2, 'B', '{}'), (3, 'C', '{}')`);
    await d.db.query(`insert into graph_kinds (id, name) values (1, 'MemberOf') on conflict do nothing`);
    // Two transactions at once, each writing edges one by one: each sees its own ids ascending, all of them unique.
    const write = (start: number) =>
      d.db.tx(async (q) => {
        const ids: number[] = [];
        for (const end of [1, 2, 3]) {
          const [r] = await q.query<{ id: number }>(`insert into graph_edges (start_id, end_id, kind_id) values ($1, $2, 1) returning id`, [
            start,
            end,
          ]);
          ids.push(r!.id);
        }
        return ids;
      });
    const [a, b] = await Promise.all([write(1), write(2)]);
    for (const ids of [a!, b!]) expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(new Set([...a!, ...b!]).size).toBe(6);
  });

  it("keeps one index on a node's object id: unique, and serving equality, prefix searches and ON CONFLICT", async () => {
    dbs = [await createTestDb()];
    const d = dbs[0]!;
    const defs = (
      await d.db.query<{ indexdef: string }>(`select indexdef from pg_indexes where schemaname = $1 and tablename = 'graph_nodes'`, [
        d.schema,
      ])
    ).map((r) => r.indexdef);
    expect(defs.filter((x) => /\(objectid\b/.test(x))).toEqual([expect.stringMatching(/UNIQUE INDEX .* \(objectid text_pattern_ops\)/)]);
    const upsert = `insert into graph_nodes as n (objectid, kind_ids, properties) values ($1, '{}', $2::jsonb)
      on conflict (objectid) do update set properties = n.properties || excluded.properties returning id`;
    const [first] = await d.db.query<{ id: number }>(upsert, ['S-1-5-21-1', '{"a": 1}']);
    const [again] = await d.db.query<{ id: number }>(upsert, ['S-1-5-21-1', '{"b": 2}']);
    expect(again!.id).toBe(first!.id);
    await d.db.query(upsert, ['S-1-5-21-2', '{}']);
    const prefixed = await d.db.query<{ objectid: string }>(`select objectid from graph_nodes where objectid like 'S-1-5-21-%' order by 1`);
    expect(prefixed.map((r) => r.objectid)).toEqual(['S-1-5-21-1', 'S-1-5-21-2']);
  });
});
