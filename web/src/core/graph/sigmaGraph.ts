import { MultiDirectedGraph } from 'graphology';
import { seedPositions } from '../layouts/seed';
import type { ExploreGraph } from './model';
import { isOwned, isTierZero, kindIcon, MARKERS, type CustomKinds } from './style';

/**
 * Node radius of a lean (large) result: thousands of nodes at the full size cover each other, and each covered
 * pixel costs fill where WebGL runs in software.
 */
export const LEAN_NODE_SIZE = 5;

/** What the canvas needs of a node beyond its data. */
export interface NodeDisplay {
  label: string;
  size: number;
  color: string;
  /** The kind's icon as an image URL (drawn dark on the kind's colour). */
  image: string;
  pictoColor: string;
  /** Rings: owned outside, Tier Zero inside; the node's colour where there is no marker. */
  ownedRing: string;
  ownedGap: string;
  tierRing: string;
  tierGap: string;
  tierZero: boolean;
  owned: boolean;
  objectId: string;
  kind: string;
  /** The node program: `lean` (rings and colour, no icon) for large results, else the default. */
  type?: 'lean';
  x?: number;
  y?: number;
}

export interface EdgeDisplay {
  label: string;
  kind: string;
  size: number;
  color: string;
  type: 'arrow' | 'curvedArrow' | 'line';
  curvature?: number;
}

export type CanvasGraph = MultiDirectedGraph<NodeDisplay, EdgeDisplay>;

export interface StyleContext {
  custom: CustomKinds;
  owned: ReadonlySet<string>;
  /** Icon image URL for an icon name (built-in icons at once; custom ones once their set has loaded). */
  iconImage: (name: string) => string;
  edgeColor: string;
  /** The canvas colour, between a marker ring and the node. */
  gapColor: string;
}

/** The attributes of one node as the canvas draws it. */
export function nodeDisplay(n: ExploreGraph['nodes'][number], ctx: StyleContext): NodeDisplay {
  const icon = kindIcon(n, ctx.custom);
  const tierZero = isTierZero(n);
  const owned = isOwned(n, ctx.owned);
  return {
    label: n.name,
    size: 15,
    color: icon.color,
    image: ctx.iconImage(icon.icon),
    pictoColor: '#141414',
    ownedRing: owned ? MARKERS.owned : icon.color,
    ownedGap: owned ? ctx.gapColor : icon.color,
    tierRing: tierZero ? MARKERS.tierZero : icon.color,
    tierGap: tierZero ? ctx.gapColor : icon.color,
    tierZero,
    owned,
    objectId: n.objectId,
    kind: n.kind,
  };
}

/**
 * The graphology graph the canvas renders. Positions carry over from `previous` for nodes drawn before (a list
 * opened from a node grows around it); new nodes are placed next to a placed neighbour or scattered. Parallel
 * edges (two kinds between the same nodes) are curved apart so each label can be read.
 */
export function buildCanvasGraph(g: ExploreGraph, ctx: StyleContext, previous?: CanvasGraph, opts: { lean?: boolean } = {}): CanvasGraph {
  const graph: CanvasGraph = new MultiDirectedGraph();
  const lean = !!opts.lean;
  for (const n of g.nodes) {
    const attrs = nodeDisplay(n, ctx);
    if (lean) Object.assign(attrs, { size: LEAN_NODE_SIZE, type: 'lean' });
    const old = previous?.hasNode(n.key) ? previous.getNodeAttributes(n.key) : undefined;
    graph.addNode(n.key, old?.x !== undefined ? { ...attrs, x: old.x, y: old.y } : attrs);
  }
  const type = lean ? 'line' : 'arrow';
  for (const e of g.edges) {
    if (!graph.hasNode(e.source) || !graph.hasNode(e.target) || graph.hasEdge(e.key)) continue;
    graph.addEdgeWithKey(e.key, e.source, e.target, { label: e.kind, kind: e.kind, size: lean ? 1 : 2, color: ctx.edgeColor, type });
  }
  // Lean drawing has plain lines, so parallel edges need no curvature.
  if (lean) {
    seedPositions(graph);
    return graph;
  }
  // Edges between the same two nodes, either way round, each get their own curvature.
  const pairs = new Map<string, string[]>();
  graph.forEachEdge((edge, _a, s, t) => {
    const key = s < t ? `${s}\u0000${t}` : `${t}\u0000${s}`;
    const list = pairs.get(key);
    if (list) list.push(edge);
    else pairs.set(key, [edge]);
  });
  for (const edges of pairs.values()) {
    if (edges.length < 2) continue;
    edges.forEach((edge, i) => graph.mergeEdgeAttributes(edge, { type: 'curvedArrow', curvature: 0.15 + (0.5 * i) / edges.length }));
  }
  seedPositions(graph);
  return graph;
}
