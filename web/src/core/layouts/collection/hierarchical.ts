import type { LayoutAnswer } from '../protocol';
import { spawnLayoutWorker, type LayoutDefinition } from '../types';

/**
 * BloodHound's sequential layout: ranks from left to right along the edges (dagre), so a path reads from its start
 * on the left to its end on the right. Computed in the layout worker.
 */
export const hierarchicalLayout: LayoutDefinition = {
  id: 'hierarchical',
  label: 'Sequential (paths)',
  run(graph) {
    const worker = spawnLayoutWorker();
    let finish!: () => void;
    let fail!: (err: Error) => void;
    const done = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    worker.onmessage = (e: MessageEvent<LayoutAnswer>) => {
      const msg = e.data;
      worker.terminate();
      if (msg.type === 'positions') {
        graph.updateEachNodeAttributes((key, attr) => {
          const p = msg.positions[key];
          return p ? { ...attr, x: p[0], y: p[1] } : attr;
        });
        finish();
      } else if (msg.type === 'error') fail(new Error(msg.message));
    };
    const nodes = graph.mapNodes((key, attr) => ({ key, width: 40 + Math.min(200, String(attr.label ?? '').length * 7), height: 40 }));
    const edges = graph.mapEdges((_e, _a, s, t) => [s, t] as [string, string]);
    worker.postMessage({ type: 'hierarchical', nodes, edges, rankdir: 'LR' });
    return {
      done,
      cancel() {
        worker.terminate();
        finish();
      },
    };
  },
};
