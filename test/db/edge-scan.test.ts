import { useGraphDb } from '../helpers/graph';

/**
 * The store's edge scan (the path index's input): one COPY parsed from the socket's buffers, or pages of
 * rows where COPY is not to be had. Both must hand over every edge once, with its kind and GPLink-enforced flag.
 */
describe('graph edge scan', () => {
  const g = useGraphDb();

  async function scanned() {
    const rows: string[] = [];
    await g.store().scanEdges((b) => {
      for (let i = 0; i < b.start.length; i++) rows.push(`${b.start[i]} ${b.end[i]} ${b.kind[i]} ${b.flags[i]}`);
    });
    return rows.sort();
  }

  async function expected() {
    const rows = await g.db().query<{ s: number; t: number; k: number; f: number }>(
      `select e.start_id s, e.end_id t, e.kind_id k,
              case when k.name = 'GPLink' and e.properties ->> 'enforced' = 'true' then 1 else 0 end f
       from graph_edges e join graph_kinds k on k.id = e.kind_id`,
    );
    return rows.map((r) => `${r.s} ${r.t} ${r.k} ${r.f}`).sort();
  }

  it('hands over every edge with its kind and the GPLink enforced flag', async () => {
    await g.load(['a', 'b', 'c'], [['a', 'b', 'MemberOf']]);
    await g.store().write(async (w) =>
      w.upsertEdges([
        { start: 'a', end: 'c', kind: 'GPLink', properties: { enforced: true } },
        { start: 'b', end: 'c', kind: 'GPLink', properties: { enforced: false } },
        { start: 'c', end: 'a', kind: 'GPLink', properties: {} },
        { start: 'c', end: 'b', kind: 'AdminTo', properties: { enforced: true } },
      ]),
    );
    const rows = await scanned();
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => r.endsWith(' 1'))).toHaveLength(1);
    expect(rows).toEqual(await expected());
  });

  it('keeps rows split across socket reads and batches whole (more edges than one batch, ids past 5 digits)', async () => {
    await g.load(['a'], []);
    await g.db().query(`select setval('graph_nodes_id_seq', 123456789)`);
    await g
      .db()
      .query(`insert into graph_nodes (objectid, kind_ids, properties) select 'N' || i, '{}', '{}' from generate_series(1, 400) i`);
    const kind = (await g.db().query<{ id: number }>(`select id from graph_kinds where name = 'MemberOf'`))[0]!.id;
    await g.db().query(
      `insert into graph_edges (start_id, end_id, kind_id)
       select s.id, t.id, $1 from graph_nodes s join graph_nodes t on t.id % 2 = 0 and s.id <> t.id`,
      [kind],
    );
    const rows = await scanned();
    expect(rows.length).toBeGreaterThan(1 << 16);
    expect(rows).toEqual(await expected());
  });
});
