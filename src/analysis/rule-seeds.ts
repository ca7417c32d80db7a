import type { GraphStore } from '../graph/store.js';
import { seedMatches, type TierZeroSeed } from './steps/tier-zero.js';
import { AnalysisGraph } from './view.js';

/**
 * The store ids of the nodes each list of rule seeds selects (one list per selector), on one analysis view of the
 * graph as it is now: loading it reads and holds the whole graph (seconds at tier M), so the server runs this on the
 * pipeline worker after analysis.
 */
export async function ruleSeedMatches(store: GraphStore, rules: readonly (readonly TierZeroSeed[])[]): Promise<number[][]> {
  if (!rules.some((r) => r.length)) return rules.map(() => []);
  const g = await AnalysisGraph.load(store);
  return rules.map((list) => {
    const ids: number[] = [];
    for (const r of list) for (const n of seedMatches(g, r)) if (n.id > 0) ids.push(n.id);
    return ids;
  });
}
