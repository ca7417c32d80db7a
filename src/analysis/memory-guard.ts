import v8 from 'node:v8';
import { tooLarge } from '../errors.js';

/**
 * What an analysis run holds at its peak (the in-memory view of the graph, the facts it derives, the closures it
 * caches) per node and per edge of the graph: peak RSS was 0.89–0.94 GiB on tier M (116k nodes, 1.74M edges) and
 * 8.3–8.6 GiB on tier L (1.16M nodes, 17.4M edges), which these give as 0.94 and 9.4 GiB (docs/benchmarks.md).
 */
export const PEAK_BYTES_PER_NODE = 1_024;
export const PEAK_BYTES_PER_EDGE = 512;

const GIB = 1024 ** 3;
const gib = (bytes: number) => (bytes / GIB).toFixed(1);

/** Heap this process may still take before V8 gives up. */
export function availableHeap(): number {
  const h = v8.getHeapStatistics();
  return h.heap_size_limit - h.used_heap_size;
}

/**
 * Refuses a run the heap cannot hold. Running out of heap does not fail the run: V8 aborts the whole process (the
 * API with it) after minutes of garbage collection, as a tier-L forest did with Node's default heap. Refusing up
 * front leaves the graph as it was and says what to change.
 */
export function checkAnalysisMemory(graph: { nodes: number; edges: number }, available: number): void {
  const need = graph.nodes * PEAK_BYTES_PER_NODE + graph.edges * PEAK_BYTES_PER_EDGE;
  if (need <= available) return;
  const suggestMb = Math.ceil((need * 1.25) / 1024 ** 2 / 1024) * 1024;
  throw tooLarge(
    'analysis',
    `Analysis of ${graph.nodes} nodes and ${graph.edges} edges needs about ${gib(need)} GiB of memory; it may take ` +
      `${gib(available)} GiB of heap here (what the process has left, or ANALYSIS_MAX_HEAP_MB). Nothing was changed. ` +
      `Start the service with a larger heap (NODE_OPTIONS=--max-old-space-size=${suggestMb}) and run analysis again.`,
  );
}
