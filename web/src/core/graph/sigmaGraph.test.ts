import { describe, expect, it } from 'vitest';
import type { ExploreGraph } from './model';
import { buildCanvasGraph, LEAN_NODE_SIZE, type StyleContext } from './sigmaGraph';

const ctx: StyleContext = {
  custom: new Map(),
  owned: new Set(['S-2']),
  iconImage: (n) => `icon:${n}`,
  edgeColor: '#888',
  gapColor: '#000',
};
const g: ExploreGraph = {
  nodes: [
    { key: '1', objectId: 'S-1', name: 'ALICE@TESTLAB.LOCAL', kinds: ['Base', 'User'], kind: 'User', properties: {} },
    {
      key: '2',
      objectId: 'S-2',
      name: 'DOMAIN ADMINS@TESTLAB.LOCAL',
      kinds: ['Base', 'Group', 'Tag_Tier_Zero'],
      kind: 'Group',
      properties: {},
    },
  ],
  edges: [
    { key: '10', source: '1', target: '2', kind: 'MemberOf', properties: {} },
    { key: '11', source: '1', target: '2', kind: 'GenericAll', properties: {} },
    { key: '12', source: '1', target: '99', kind: 'AdminTo', properties: {} },
  ],
};

describe('the canvas graph', () => {
  it('draws each node with its kind icon and colour, marks Tier Zero and owned, labels edges with their kind', () => {
    const graph = buildCanvasGraph(g, ctx);
    expect(graph.order).toBe(2);
    expect(graph.size).toBe(2); // the edge to a node not drawn is left out
    expect(graph.getNodeAttributes('1')).toMatchObject({
      label: 'ALICE@TESTLAB.LOCAL',
      color: '#17E625',
      image: 'icon:user',
      tierZero: false,
    });
    expect(graph.getNodeAttributes('2')).toMatchObject({
      image: 'icon:users',
      tierZero: true,
      owned: true,
      tierRing: '#F5B70A',
      ownedRing: '#E5383B',
    });
    expect(graph.getEdgeAttribute('10', 'label')).toBe('MemberOf');
  });

  it('curves parallel edges apart and keeps the positions of nodes drawn before', () => {
    const first = buildCanvasGraph(g, ctx);
    expect(first.getEdgeAttribute('10', 'type')).toBe('curvedArrow');
    expect(first.getEdgeAttribute('11', 'curvature')).not.toBe(first.getEdgeAttribute('10', 'curvature'));
    first.mergeNodeAttributes('1', { x: 42, y: -7 });
    const next = buildCanvasGraph(g, ctx, first);
    expect(next.getNodeAttributes('1')).toMatchObject({ x: 42, y: -7 });
    expect(typeof next.getNodeAttribute('2', 'x')).toBe('number');
  });

  it('draws a large result lean: small icon-less nodes keeping their markers, straight lines', () => {
    const lean = buildCanvasGraph(g, ctx, undefined, { lean: true });
    expect(lean.getNodeAttributes('2')).toMatchObject({ type: 'lean', size: LEAN_NODE_SIZE, tierRing: '#F5B70A', ownedRing: '#E5383B' });
    expect(lean.getNodeAttribute('1', 'size')).toBeLessThan(buildCanvasGraph(g, ctx).getNodeAttribute('1', 'size'));
    expect(lean.getEdgeAttribute('10', 'type')).toBe('line');
    expect(lean.getEdgeAttribute('11', 'type')).toBe('line');
    expect(typeof lean.getNodeAttribute('1', 'x')).toBe('number');
  });
});
