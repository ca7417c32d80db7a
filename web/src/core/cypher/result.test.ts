import { describe, expect, it } from 'vitest';
import { cypherGraph, cypherSummary } from './result';

const answer = {
  nodes: [
    {
      id: 1,
      objectId: 'S-1',
      label: 'ALICE',
      name: 'ALICE@X',
      kind: 'User',
      kinds: ['Base', 'User'],
      isTierZero: false,
      isOwnedObject: true,
      properties: {},
    },
    {
      id: 2,
      objectId: 'S-2',
      label: 'DA',
      name: null,
      kind: 'Group',
      kinds: ['Base', 'Group'],
      isTierZero: true,
      isOwnedObject: false,
      properties: { a: 1 },
    },
  ],
  edges: [
    { source: 1, target: 2, kind: 'MemberOf', properties: {} },
    { source: 1, target: 9, kind: 'AdminTo', properties: {} },
  ],
  literals: [],
  columns: ['p'],
  rows: [[1]],
  truncated: [],
};

describe('Cypher answers', () => {
  it('become a graph with markers from the answer, edges keyed by their ends and kind', () => {
    const g = cypherGraph(answer);
    expect(g.nodes.map((n) => [n.key, n.name])).toEqual([
      ['1', 'ALICE@X'],
      ['2', 'DA'],
    ]);
    expect(g.nodes[0]!.kinds).toContain('Tag_Owned');
    expect(g.nodes[1]!.kinds).toContain('Tag_Tier_Zero');
    expect(g.edges).toEqual([{ key: '1-MemberOf-2', source: '1', target: '2', kind: 'MemberOf', properties: {} }]);
  });

  it('say when they came without properties, so panels and the export fetch them', () => {
    const { nodes, edges, ...rest } = answer;
    const bare = { ...rest, nodes: nodes.map(({ properties: _p, ...n }) => n), edges: edges.map(({ properties: _p, ...e }) => e) };
    const g = cypherGraph(bare, true);
    expect(g.propertiesOmitted).toBe(true);
    expect(g.nodes[0]!.properties).toEqual({});
    expect(cypherGraph(answer).propertiesOmitted).toBeUndefined();
  });

  it('are summarised with their size and the cap that cut them', () => {
    expect(cypherSummary(answer)).toBe('2 nodes, 2 edges');
    expect(cypherSummary({ ...answer, nodes: [], rows: [[1], [2]], truncated: [{ limit: 'rows', cap: 2 }] })).toBe(
      '2 rows, no graph (cut at 2 rows)',
    );
  });
});
