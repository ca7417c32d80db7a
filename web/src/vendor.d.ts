// graphology-layout-forceatlas2 ships these CommonJS modules without declarations; the app runs its iteration in
// a worker of its own (src/core/layouts/layout.worker.ts) rather than the package's blob-URL worker, which a CSP
// without `worker-src blob:` refuses.
declare module 'graphology-layout-forceatlas2/iterate.js' {
  export default function iterate(settings: Record<string, unknown>, nodes: Float32Array, edges: Float32Array): void;
}
declare module 'graphology-layout-forceatlas2/helpers.js' {
  import type Graph from 'graphology';
  export function graphToByteArrays(
    graph: Graph,
    getEdgeWeight: (edge: string, attr: Record<string, unknown>) => number,
  ): { nodes: Float32Array; edges: Float32Array };
  export function assignLayoutChanges(graph: Graph, nodes: Float32Array, outputReducer: null): void;
}
declare module 'graphology-layout-forceatlas2/defaults.js' {
  const defaults: Record<string, number | boolean>;
  export default defaults;
}
