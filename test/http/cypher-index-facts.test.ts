import { useTestApp } from '../helpers/app';

/**
 * Facts the path index carries for Cypher answer as the stored properties do: `r.isacl` read from the index's
 * edge flags against `properties(r)` (read from PostgreSQL by the relationship), for edges with isacl true, false,
 * absent, JSON null and a value of another type; scans whose relationships are rejected from the index's domain
 * numbers and edge flags before a row is built, against the same filters after a WITH (which reads the columns),
 * with nodes of no domainsid and of a domainsid that is not a string.
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
        { objectid: `${D}-5`, kinds: ['Base', 'User'], properties: { name: 'NUMBER-SID@CORP', domainsid: 5 } },
        // Not Base: the edges of non-boolean isacl end here, out of the scans below (their WHERE would be a TypeError).
        { objectid: `${D}-6`, kinds: ['AZBase', 'AZUser'], properties: { name: 'X@CORP', domainsid: D } },
      ]);
      await w.upsertEdges([
        { start: `${D}-1`, end: `${D}-2`, kind: 'GenericAll', properties: { isacl: true } },
        { start: `${D}-1`, end: `${E}-3`, kind: 'GenericWrite', properties: { isacl: false } },
        { start: `${D}-1`, end: `${D}-4`, kind: 'MemberOf', properties: {} },
        { start: `${D}-2`, end: `${E}-3`, kind: 'Owns', properties: { isacl: null } },
        { start: `${E}-3`, end: `${D}-6`, kind: 'WriteDacl', properties: { isacl: 'yes' } },
        { start: `${D}-4`, end: `${E}-3`, kind: 'AddMember', properties: { isacl: true } },
        { start: `${D}-4`, end: `${D}-6`, kind: 'Owns', properties: { isacl: 1 } },
        { start: `${D}-5`, end: `${E}-3`, kind: 'GenericAll', properties: { isacl: true } },
        { start: `${D}-5`, end: `${D}-1`, kind: 'GenericAll', properties: { isacl: true } },
        { start: `${E}-3`, end: `${D}-2`, kind: 'GenericAll', properties: { isacl: true } },
      ]);
    });
    await t.infra.graphIndex.invalidate();
  });

  it('r.isacl from the edge flags is the stored property, of any type', async () => {
    const rows = await run(
      'MATCH (a)-[r]->(b) RETURN a.name AS a, type(r) AS t, b.name AS b, r.isacl AS flag, properties(r).isacl AS stored',
    );
    expect(rows).toHaveLength(10);
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
      'NUMBER-SID@CORP-GenericAll': true,
      'C@OTHER-GenericAll': true,
    });
    const acl = await run('MATCH (a)-[r]->(b) WHERE r.isacl = true RETURN type(r) AS t ORDER BY t');
    expect(acl.map((r) => r[0])).toEqual(['AddMember', 'GenericAll', 'GenericAll', 'GenericAll', 'GenericAll']);
    const notAcl = await run('MATCH (a)-[r]->(b) WHERE r.isacl = false RETURN type(r) AS t');
    expect(notAcl.map((r) => r[0])).toEqual(['GenericWrite']);
  });

  it('scans rejected from domain numbers and edge flags answer as the filters after a WITH do', async () => {
    const table = async (q: string) => (await run(q)).map((r) => JSON.stringify(r)).sort();
    for (const where of [
      'a.domainsid <> b.domainsid AND r.isacl',
      'a.domainsid = b.domainsid AND r.isacl = true',
      'r.isacl AND b.domainsid <> a.domainsid',
      'a.domainsid = b.domainsid',
    ]) {
      const fast = await table(`MATCH (a:Base)-[r]->(b:Base) WHERE ${where} RETURN a.name, type(r), b.name`);
      const plain = await table(`MATCH (a:Base)-[r]->(b:Base) WITH a, r, b WHERE ${where} RETURN a.name, type(r), b.name`);
      expect(fast).toEqual(plain);
    }
    const across = await table('MATCH (a:Base)-[r]->(b:Base) WHERE a.domainsid <> b.domainsid AND r.isacl RETURN a.name, b.name');
    expect(across).toEqual(
      [
        ['C@OTHER', 'B@CORP'],
        ['NUMBER-SID@CORP', 'C@OTHER'],
        ['NUMBER-SID@CORP', 'A@CORP'],
      ]
        .map((r) => JSON.stringify(r))
        .sort(),
    );
  });
});
