/// <reference lib="webworker" />
import dagre from '@dagrejs/dagre';
import iterate from 'graphology-layout-forceatlas2/iterate.js';
import type { LayoutAnswer, LayoutRequest } from './protocol';

/**
 * Runs layouts off the main thread, so the canvas stays interactive while they work: ForceAtlas2 iterations on
 * the node matrix (positions posted every `frameMs`), and dagre's layered layout for the hierarchical view.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (msg: LayoutAnswer, transfer: Transferable[] = []) => scope.postMessage(msg, transfer);

function force(req: Extract<LayoutRequest, { type: 'force' }>): void {
  const start = performance.now();
  let lastFrame = start;
  let i = 0;
  for (; i < req.maxIterations; i++) {
    iterate(req.settings, req.nodes, req.edges);
    const now = performance.now();
    if (now - start > req.maxMs) break;
    if (now - lastFrame > req.frameMs) {
      lastFrame = now;
      post({ type: 'frame', nodes: req.nodes.slice() });
    }
  }
  post({ type: 'done', nodes: req.nodes, iterations: i + 1 }, [req.nodes.buffer]);
}

function hierarchical(req: Extract<LayoutRequest, { type: 'hierarchical' }>): void {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: req.rankdir, nodesep: 60, ranksep: 90, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of req.nodes) g.setNode(n.key, { width: n.width, height: n.height });
  req.edges.forEach(([s, t], i) => g.setEdge(s, t, {}, String(i)));
  dagre.layout(g);
  const positions: Record<string, [number, number]> = {};
  for (const n of req.nodes) {
    const p = g.node(n.key);
    // Screen y grows downwards, the graph's upwards.
    positions[n.key] = [p.x, -p.y];
  }
  post({ type: 'positions', positions });
}

scope.onmessage = (e: MessageEvent<LayoutRequest>) => {
  try {
    if (e.data.type === 'force') force(e.data);
    else hierarchical(e.data);
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};
