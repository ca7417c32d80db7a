import { analyze } from '../../src/cypher/analyze/analyze';
import { execute, prepare } from '../../src/cypher/engine';
import { CypherError } from '../../src/cypher/errors';
import { toJson } from '../../src/cypher/execute/values';
import { toModel } from '../../src/cypher/frontend/query';
import { MemoryGraph } from '../../src/cypher/graph/memory-graph';
import { parseText } from '../../src/cypher/parse/parser';
import { planMatch } from '../../src/cypher/plan/plan';

/** Each stage of the engine on its own: parse, model, analysis, plan, execution on the in-memory graph. */

const errorOf = (fn: () => unknown): CypherError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof CypherError) return e;
    throw e;
  }
  throw new Error('no error');
};

describe('parse', () => {
  it('names line, column, offset and what was expected, in Neo4j’s words', () => {
    // `RETURN` may be a variable's name, so the error is at the `n` after it.
    const e = errorOf(() => parseText('MATCH (n)\nWHERE n.name = \nRETURN n'));
    expect(e.kind).toBe('syntax');
    expect(e.position).toEqual({ line: 3, column: 8, offset: 33 });
    expect(e.message).toMatch(/^Invalid input 'n': expected .* \(line 3, column 8 \(offset: 33\)\)$/);
  });
});

describe('frontend', () => {
  it('models patterns: labels, type alternatives, direction, ranges, path variables', () => {
    const q = toModel(parseText('MATCH p = (a:User:Base)<-[r:MemberOf|AdminTo*2..]-(b) RETURN p'));
    const m = q.parts[0]!.clauses[0]!;
    expect(m).toMatchObject({
      kind: 'match',
      patterns: [
        {
          pathVariable: 'p',
          nodes: [{ variable: 'a', labels: { kind: 'and', items: [{ name: 'User' }, { name: 'Base' }] } }, { variable: 'b' }],
          rels: [{ variable: 'r', types: ['MemberOf', 'AdminTo'], direction: 'in', range: { min: 2, max: null } }],
        },
      ],
    });
  });

  it('refuses writing clauses as read-only, and reads CREATE only for the test graph', () => {
    expect(errorOf(() => toModel(parseText('CREATE (n)'))).kind).toBe('readOnly');
    expect(toModel(parseText('CREATE (n)'), { testWrites: true }).parts[0]!.clauses[0]!.kind).toBe('create');
  });
});

describe('analysis', () => {
  it.each([
    ['MATCH (n) RETURN m', 'UndefinedVariable'],
    ['MATCH (n) WITH n.name RETURN 1', 'NoExpressionAlias'],
    ['MATCH (a)-[r]->(b)-[r]->(c) RETURN a', 'VariableAlreadyBound'],
    ['MATCH (a) MATCH ()-[a]->() RETURN a', 'VariableTypeConflict'],
    ['RETURN NOT 1', 'InvalidArgumentType'],
    ['MATCH (n) RETURN n LIMIT -1', 'NegativeIntegerArgument'],
    ['MATCH (n) WHERE (n)-->(m) RETURN n', 'UndefinedVariable'],
  ])('%s → %s', (query, detail) => {
    expect(errorOf(() => analyze(toModel(parseText(query)))).tck.detail).toBe(detail);
  });

  it('lists the property keys a query reads, for the live graph to load first', () => {
    expect([...prepare('MATCH (u:User) WHERE u.hasspn RETURN u.name, u {.enabled}').analysis.propertyKeys].sort()).toEqual([
      'enabled',
      'hasspn',
      'name',
    ]);
  });
});

describe('plan', () => {
  it('starts at the object id look-up, not at the label scan', () => {
    const q = toModel(parseText("MATCH (u:User)-[:MemberOf]->(g:Group) WHERE g.objectid = 'S-1-5-21-1-512' RETURN u"));
    const m = q.parts[0]!.clauses[0]! as Extract<(typeof q.parts)[0]['clauses'][0], { kind: 'match' }>;
    const plan = planMatch(m.patterns, m.where, new Set(), {
      nodeCount: () => 1000,
      labelCount: () => 100,
      canLookUp: (k) => k === 'objectid',
    });
    expect(plan.steps[0]).toMatchObject({ kind: 'node', node: { name: 'g' }, lookup: { key: 'objectid' } });
    expect(plan.steps[1]).toMatchObject({ kind: 'filter' }); // the WHERE, as soon as g is bound
    expect(plan.steps[2]).toMatchObject({ kind: 'expand', from: { name: 'g' }, to: { name: 'u' }, direction: 'in', backwards: true });
  });

  const matchOf = (text: string) => {
    const q = toModel(parseText(text));
    return q.parts[0]!.clauses[0]! as Extract<(typeof q.parts)[0]['clauses'][0], { kind: 'match' }>;
  };
  const stats = (share: Record<string, number>) => ({
    nodeCount: () => 100_000,
    labelCount: (l: string) => ({ Group: 5000, Tag_Tier_Zero: 250 })[l] ?? 100_000,
    canLookUp: () => false,
    selectivity: (n: { name: string }) => share[n.name],
  });

  it('starts at the end its WHERE narrows most, not at the smaller label', () => {
    const m = matchOf("MATCH (g:Group)-[:MemberOf]->(t:Tag_Tier_Zero) WHERE g.objectid ENDS WITH '-513' RETURN t");
    expect(planMatch(m.patterns, m.where, new Set(), stats({ g: 0.0005 })).steps[0]).toMatchObject({ kind: 'node', node: { name: 'g' } });
    expect(planMatch(m.patterns, m.where, new Set(), stats({ g: 0.5 })).steps[0]).toMatchObject({ kind: 'node', node: { name: 't' } });
  });

  it('narrows a relationship type list by `NOT r:Type` instead of filtering each relationship', () => {
    const m = matchOf('MATCH (n:Group)-[r:MemberOf|AdminTo|GenericAll]->(m) WHERE NOT r:MemberOf RETURN n');
    const plan = planMatch(m.patterns, m.where, new Set(), stats({}));
    expect(plan.steps.map((s) => s.kind)).toEqual(['node', 'expand']);
    expect(plan.steps[1]).toMatchObject({ rel: { pattern: { types: ['AdminTo', 'GenericAll'] } } });
    expect(m.patterns[0]!.rels[0]!.types).toEqual(['MemberOf', 'AdminTo', 'GenericAll']); // the query itself is untouched
  });

  it("checks a shortest path's far end against the WHERE as the search reaches it", () => {
    const m = matchOf("MATCH p = shortestPath((s:User)-[*1..]->(t:Group)) WHERE s.hasspn = true AND t.objectid ENDS WITH '-512' RETURN p");
    const plan = planMatch(m.patterns, m.where, new Set(), stats({ t: 0.001, s: 0.05 }));
    expect(plan.steps.map((s) => s.kind)).toEqual(['node', 'filter', 'shortest', 'path']);
    expect(plan.steps[2]).toMatchObject({ kind: 'shortest', from: { name: 't' }, to: { name: 's' }, toFilters: [{ kind: 'binary' }] });
  });
});

describe('execute', () => {
  const g = new MemoryGraph();
  beforeAll(async () => {
    await execute(
      prepare("CREATE (a:N {n: 'a'})-[:R]->(b:N {n: 'b'})-[:R]->(c:N {n: 'c'}), (a)-[:R]->(c), (c)-[:R]->(a)", { testWrites: true }),
      g,
    );
  });
  const rows = async (q: string) => (await execute(prepare(q), g)).rows.map((r) => r.map((v) => toJson(v)));

  it('keeps relationships unique within a variable-length pattern', async () => {
    // Walks from a that use each relationship at most once: to c by a→c, a→b→c, a→c→a→b→c and a→b→c→a→c.
    expect(await rows("MATCH (x {n: 'a'})-[:R*]->(y) RETURN y.n AS y, count(*) AS walks ORDER BY y")).toEqual([
      ['a', 2],
      ['b', 2],
      ['c', 4],
    ]);
  });

  it('finds one shortest path, and all of them', async () => {
    expect(await rows("MATCH p = shortestPath((x {n: 'a'})-[*]->(y {n: 'c'})) RETURN length(p)")).toEqual([[1]]);
    expect(await rows("MATCH p = allShortestPaths((x {n: 'b'})-[*]-(y {n: 'a'})) RETURN length(p)")).toEqual([[1]]);
  });

  it('is three-valued: null comparisons are null and filter rows out', async () => {
    expect(await rows('RETURN null = null AS a, null OR true AS b, null AND false AS c, 1 IN [null, 1] AS d, 2 IN [null, 1] AS e')).toEqual(
      [[null, true, false, true, null]],
    );
  });

  it('answers `NOT r:Type` on listed types as the filter would', async () => {
    expect(await rows("MATCH (x {n: 'a'})-[r:R|S]->(y) WHERE NOT r:S RETURN y.n AS y ORDER BY y")).toEqual([['b'], ['c']]);
    expect(await rows("MATCH (x {n: 'a'})-[r:R|S]->(y) WHERE NOT r:R RETURN y.n AS y")).toEqual([]);
  });

  it('stops at the deadline', async () => {
    const err = await execute(prepare('MATCH (a), (b), (c), (d), (e), (f), (g), (h) RETURN count(*)'), g, {
      deadline: Date.now() - 1,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(CypherError);
    expect(err.kind).toBe('timeout');
  });
});
