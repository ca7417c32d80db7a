import { useTestApp } from '../helpers/app';

/**
 * Facts the path index carries for Cypher answer as the stored properties do: `r.isacl` read from the index's
 * edge flags against `properties(r)` (read from PostgreSQL by the relationship), for edges with isacl true, false,
 * absent, JSON null and a value of another type.
 */
describe('Cypher reads of facts the index carries', () => {
  const t = useTestApp();
  const D = 'S-1-5-21-900-900-900';
  const E = 'S-1-5-21-800-800-800';
  const run = async (query: string) => (await t.services.cypher.run(query, { deadline: Date.now() + 30_000 })).rows;

  beforeAll(async () => {
    await t.infra.graphStore.write(async (w) => {
      await w.upsertNodes([
        { objectid: `${D}-1`, kinds: ['Base', 'User'], properties: { name: 'A@CORP', domainsid: D } },
        { objectid: `${D}-2`, kinds: ['Base', 'Group'], properties: { name: 'B@CORP', domainsid: D } },
        { objectid: `${E}-3`, kinds: ['Base', 'Computer'], properties: { name: 'C@OTHER', domainsid: E } },
        { objectid: `${D}-4`, kinds: ['Base', 'User'], properties: { name: 'NO-SID@CORP' } },
      ]);
      await w.upsertEdges([
        { start: `${D}-1`, end: `${D}-2`, kind: 'GenericAll', properties: { isacl: true } },
        { start: `${D}-1`, end: `${E}-3`, kind: 'GenericWrite', properties: { isacl: false } },
        { start: `${D}-1`, end: `${D}-4`, kind: 'MemberOf', properties: {} },
        { start: `${D}-2`, end: `${E}-3`, kind: 'Owns', properties: { isacl: null } },
        { start: `${E}-3`, end: `${D}-1`, kind: 'WriteDacl', properties: { isacl: 'yes' } },
        { start: `${D}-4`, end: `${E}-3`, kind: 'AddMember', properties: { isacl: true } },
        { start: `${D}-4`, end: `${D}-2`, kind: 'Owns', properties: { isacl: 1 } },
      ]);
    });
    await t.infra.graphIndex.invalidate();
  });

  it('r.isacl from the edge flags is the stored property, of any type', async () => {
    const rows = await run(
      'MATCH (a)-[r]->(b) RETURN a.name AS a, type(r) AS t, b.name AS b, r.isacl AS flag, properties(r).isacl AS stored',
    );
    expect(rows).toHaveLength(7);
    for (const [, , , flag, stored] of rows) expect(flag).toEqual(stored);
    const byType = Object.fromEntries(rows.map(([a, type, , flag]) => [`${a}-${type}`, flag]));
    expect(byType).toEqual({
      'A@CORP-GenericAll': true,
      'A@CORP-GenericWrite': false,
      'A@CORP-MemberOf': null,
      'B@CORP-Owns': null,
      'C@OTHER-WriteDacl': 'yes',
      'NO-SID@CORP-AddMember': true,
      'NO-SID@CORP-Owns': 1,
    });
    const acl = await run('MATCH (a)-[r]->(b) WHERE r.isacl = true RETURN type(r) AS t ORDER BY t');
    expect(acl.map((r) => r[0])).toEqual(['AddMember', 'GenericAll']);
    const notAcl = await run('MATCH (a)-[r]->(b) WHERE r.isacl = false RETURN type(r) AS t');
    expect(notAcl.map((r) => r[0])).toEqual(['GenericWrite']);
  });
});
