import type Graph from 'graphology';

/** A number in [0, 1) from a string, the same every time (layouts start from the same place for the same graph). */
export function hash01(s: string, salt = 0): number {
  let h = 2166136261 ^ salt;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return ((h >>> 0) % 1_000_003) / 1_000_003;
}

/**
 * Positions for nodes that have none: next to an already placed neighbour when there is one (a list opened from a
 * node grows around it), else scattered over a square whose side grows with the graph.
 */
export function seedPositions(graph: Graph): number {
  const side = Math.max(10, Math.sqrt(graph.order) * 10);
  let seeded = 0;
  graph.forEachNode((key, attr) => {
    if (typeof attr.x === 'number' && typeof attr.y === 'number') return;
    const anchor = graph.neighbors(key).find((n) => typeof graph.getNodeAttribute(n, 'x') === 'number');
    const [ax, ay] = anchor ? [graph.getNodeAttribute(anchor, 'x') as number, graph.getNodeAttribute(anchor, 'y') as number] : [0, 0];
    const r = anchor ? 10 : side;
    graph.mergeNodeAttributes(key, { x: ax + (hash01(key, 1) - 0.5) * r, y: ay + (hash01(key, 2) - 0.5) * r });
    seeded++;
  });
  return seeded;
}
