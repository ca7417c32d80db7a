import { Readable } from 'node:stream';
import { ingestStream } from '../../src/ingest/ingest-stream';
import { useIngestFiles } from '../helpers/ingest-files';

/**
 * An edge towards an object further down the same file waits for the file's end (src/ingest/held-edges.ts), so the
 * object is written once, by its own item, instead of as a placeholder its item rewrites. Node ids are drawn as rows
 * are first inserted, which shows it: a placeholder made while the first item was written would have an id below
 * the second item's.
 */
describe('edges towards objects later in the same file', () => {
  const files = useIngestFiles('gas-held-edges-');
  const sid = (rid: number) => `S-1-5-21-80-80-80-${rid}`;
  const user = (rid: number, aces: { PrincipalSID: string; PrincipalType: string; RightName: string }[] = []) =>
    JSON.stringify({
      ObjectIdentifier: sid(rid),
      Properties: { name: `USER${rid}@HELD.LOCAL`, domain: 'HELD.LOCAL', domainsid: 'S-1-5-21-80-80-80' },
      Aces: aces.map((a) => ({ ...a, IsInherited: false })),
    });
  /** The file in pieces, one item per piece: with a batch limit of one byte, each item is its own batch. */
  const pieces = (items: string[]) =>
    ['{"meta":{"type":"users","count":3,"version":6},"data":[', ...items.flatMap((item, i) => (i ? [',', item] : [item])), ']}'].map((p) =>
      Buffer.from(p),
    );

  it.each([
    ['in a conversion worker', true, 100],
    ["on the writer's thread", false, 200],
  ])('writes a user its earlier neighbour has rights from once, with its own item (%s)', async (_how, worker, base) => {
    const [a, c, b] = [base + 1, base + 2, base + 3];
    const items = [user(a, [{ PrincipalSID: sid(b), PrincipalType: 'User', RightName: 'GenericAll' }]), user(c), user(b)];
    const result = await ingestStream(files.store(), 'users.json', Readable.from(pieces(items)), {
      convertInWorker: worker,
      limits: { batchBytes: 1 },
    });
    expect(result).toMatchObject({ objects: 3, nodes: 3, edges: 1 });
    const rows = await files
      .db()
      .query<{ objectid: string; id: number; named: boolean }>(
        `select objectid, id, properties ? 'name' as named from graph_nodes where objectid = any($1::text[]) order by id`,
        [[a, b, c].map(sid)],
      );
    // In file order: the user further down was not made before the one in between.
    expect(rows.map((r) => r.objectid)).toEqual([a, c, b].map(sid));
    expect(rows.every((r) => r.named)).toBe(true);
    const edges = await files.db().query<{ n: number }>(
      `select count(*)::int as n from graph_edges e join graph_nodes s on s.id = e.start_id join graph_nodes t on t.id = e.end_id
       where s.objectid = $1 and t.objectid = $2`,
      [sid(b), sid(a)],
    );
    expect(edges[0]!.n).toBe(1);
  });

  it('still makes a placeholder for an object the file never brings, at its end', async () => {
    const items = [user(301, [{ PrincipalSID: sid(399), PrincipalType: 'User', RightName: 'GenericWrite' }]), user(302)];
    await ingestStream(files.store(), 'users.json', Readable.from(pieces(items)), { limits: { batchBytes: 1 } });
    const rows = await files
      .db()
      .query<{ objectid: string; named: boolean }>(
        `select objectid, properties ? 'name' as named from graph_nodes where objectid = any($1::text[]) order by id`,
        [[301, 302, 399].map(sid)],
      );
    expect(rows).toEqual([
      { objectid: sid(301), named: true },
      { objectid: sid(302), named: true },
      { objectid: sid(399), named: false },
    ]);
  });
});
