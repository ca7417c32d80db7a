import { assignLayoutChanges, graphToByteArrays } from 'graphology-layout-forceatlas2/helpers.js';
import FA2_DEFAULTS from 'graphology-layout-forceatlas2/defaults.js';
import type { LayoutAnswer } from '../protocol';
import { seedPositions } from '../seed';
import { spawnLayoutWorker, type LayoutDefinition } from '../types';

/** ForceAtlas2 with graphology's settings for the graph's size (Barnes–Hut above 2,000 nodes). */
export function forceSettings(order: number): Record<string, unknown> {
  return {
    ...FA2_DEFAULTS,
    barnesHutOptimize: order > 2000,
    strongGravityMode: true,
    gravity: 0.05,
    scalingRatio: 10,
    slowDown: 1 + Math.log(order || 1),
  };
}

/**
 * BloodHound's standard layout: ForceAtlas2, in a worker. Small results run to 600 iterations (the same picture
 * every time), positions streamed to the canvas every 100 ms; large ones stop after 1.2 s (0.9 s above 2,000
 * nodes, where Barnes–Hut has settled the overall shape) and are drawn once, at the end.
 */
export const forceLayout: LayoutDefinition = {
  id: 'force',
  label: 'Standard (force)',
  run(graph) {
    seedPositions(graph);
    const worker = spawnLayoutWorker();
    const { nodes, edges } = graphToByteArrays(graph, () => 1);
    let finish!: () => void;
    let fail!: (err: Error) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    const order = graph.order;
    worker.onmessage = (e: MessageEvent<LayoutAnswer>) => {
      const msg = e.data;
      // The graph may have changed under a run (a list opened): its matrix no longer fits, so it is dropped.
      if (graph.order !== order) return;
      if (msg.type === 'frame' || msg.type === 'done') assignLayoutChanges(graph, msg.nodes, null);
      if (msg.type === 'done') {
        worker.terminate();
        finish();
      } else if (msg.type === 'error') {
        worker.terminate();
        fail(new Error(msg.message));
      }
    };
    if (order === 0) {
      worker.terminate();
      finish();
    } else {
      worker.postMessage(
        // A large graph gets its final positions only: redrawing thousands of edges ten times a second would keep
        // the main thread busy for nothing while the worker computes.
        {
          type: 'force',
          nodes,
          edges,
          settings: forceSettings(order),
          maxIterations: 600,
          maxMs: order > 2000 ? 900 : 1200,
          frameMs: order + graph.size > 1000 ? Infinity : 100,
        },
        [nodes.buffer, edges.buffer],
      );
    }
    return {
      done,
      cancel() {
        worker.terminate();
        finish();
      },
    };
  },
};
