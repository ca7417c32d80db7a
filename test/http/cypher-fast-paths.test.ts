import { useTestApp } from '../helpers/app';
import { GOLDEN_INPUT } from '../helpers/fixtures';
import { ingestAsAdmin } from '../helpers/upload';

/**
 * The matcher's shortcuts give the same table as the plain way of running the same question: filters run on a
 * scratch row (a row copied only when it passes), a single node grouped by its id, and an anonymous
 * variable-length relationship whose list nothing reads. Each query is compared against a formulation that cannot
 * take the shortcut (the filter after a WITH, a second grouping key, the relationship named and returned), on the
 * golden TESTLAB graph through the live index and PostgreSQL.
 */
describe('Cypher shortcuts answer as the plain way does', () => {
  const t = useTestApp();
  const table = async (query: string) => {
    const r = await t.services.cypher.run(query, { deadline: Date.now() + 30_000 });
    return r.rows.map((row) => JSON.stringify(row)).sort();
  };

  beforeAll(async () => {
    await ingestAsAdmin(t, GOLDEN_INPUT);
  });

  it('single-hop scans with node and relationship filters (scratch rows)', async () => {
    const fast = await table(
      'MATCH (a:Base)-[r]->(b:Base) WHERE a.domainsid = b.domainsid AND r.isacl RETURN a.objectid, type(r), b.objectid',
    );
    const plain = await table(
      'MATCH (a:Base)-[r]->(b:Base) WITH a, r, b WHERE a.domainsid = b.domainsid AND r.isacl RETURN a.objectid, type(r), b.objectid',
    );
    expect(fast.length).toBeGreaterThan(10);
    expect(fast).toEqual(plain);
  });

  it('a scan whose filter rejects every row, and one whose later step reads the kept row', async () => {
    expect(await table("MATCH (n:Base)-[r]->(:Base) WHERE r.isacl AND n.name CONTAINS 'NO SUCH NAME' RETURN n")).toEqual([]);
    const fast = await table(
      "MATCH (n:User)-[r:MemberOf]->(g:Group) WHERE g.name STARTS WITH 'DOMAIN' MATCH (g)-[s]->(x) RETURN n.name, g.name, type(s), x.name",
    );
    const plain = await table(
      "MATCH (n:User)-[r:MemberOf]->(g:Group) WITH n, g WHERE g.name STARTS WITH 'DOMAIN' MATCH (g)-[s]->(x) RETURN n.name, g.name, type(s), x.name",
    );
    expect(fast.length).toBeGreaterThan(0);
    expect(fast).toEqual(plain);
  });

  it('grouping by one node: collect(DISTINCT m) and count per node', async () => {
    const fast = await table(
      'MATCH (n:Base)-[r:AD_ATTACK_PATHS]->(m:Base) WHERE NOT r:MemberOf WITH n, collect(DISTINCT m) AS ms, count(r) AS c RETURN n.objectid, size(ms), c',
    );
    const plain = await table(
      'MATCH (n:Base)-[r:AD_ATTACK_PATHS]->(m:Base) WHERE NOT r:MemberOf WITH n, 1 AS one, collect(DISTINCT m) AS ms, count(r) AS c RETURN n.objectid, size(ms), c',
    );
    expect(fast.length).toBeGreaterThan(5);
    expect(fast).toEqual(plain);
  });

  it('an anonymous *0.. expansion gives one row per path, as a named one does', async () => {
    const fast = await table('MATCH (n:Base)-[:MemberOf*0..]->(m:Group) RETURN n.objectid, m.objectid');
    const plain = await table('MATCH (n:Base)-[rs:MemberOf*0..]->(m:Group) WITH n, m, rs RETURN n.objectid, m.objectid');
    expect(fast.length).toBeGreaterThan(10);
    expect(fast).toEqual(plain);
    const counted = await table('MATCH (u:User)-[:MemberOf|AdminTo*1..]->(c:Computer) RETURN u.objectid, count(c)');
    const countedPlain = await table('MATCH p = (u:User)-[:MemberOf|AdminTo*1..]->(c:Computer) RETURN u.objectid, count(p)');
    expect(counted).toEqual(countedPlain);
  });
});
