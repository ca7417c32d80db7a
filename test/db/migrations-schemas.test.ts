import { createTestDb, embedded, type TestDb } from '../helpers/db';

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
    // The embedded PGlite has no pg_trgm: there the migration leaves a notice, not an error.
    if (!embedded()) expect(a).toContain('graph_nodes_name_trgm_idx');
  });

  it("keeps the other schemas' trigram index when one schema is dropped", async () => {
    if (embedded()) return; // no pg_trgm on PGlite
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
});
