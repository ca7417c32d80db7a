import { AppError, badRequest } from '../../errors.js';

const CONTEXT = 'asset-group-tags';

/**
 * What zones need of the Cypher engine: a check before a seed is stored (a 400 naming line and column) and the
 * node ids a query returns (every node of its rows: nodes, paths' nodes, lists of them), within a bound.
 */
export interface CypherSeedEngine {
  check(query: string): void | Promise<void>;
  nodeIds(query: string, bound: { limit: number; deadlineMs: number }): Promise<number[]>;
}

/**
 * Bounds of one Cypher seed's evaluation: a selector that selects more nodes, or takes longer, is cut at the bound
 * (when it selects members at analysis) or refused (when it is previewed with a deadline of its own).
 */
export const CYPHER_SEED_BOUNDS = {
  /** Nodes one seed may select. */
  maxNodes: 100_000,
  /** Milliseconds one seed may run. */
  deadlineMs: 30_000,
  /** Characters of a seed's query. */
  maxQuery: 10_000,
};

/** Checks a Cypher seed; the engine's 400 becomes BloodHound's "cypher is invalid: …", naming the seed. */
export async function checkCypherSeed(engine: CypherSeedEngine | undefined, index: number, query: string): Promise<void> {
  if (!engine) throw badRequest(CONTEXT, `seeds[${index}]: Cypher seeds need the Cypher engine, which this service was built without.`);
  try {
    await engine.check(query);
  } catch (err) {
    if (err instanceof AppError && err.code === 'BAD_REQUEST')
      throw badRequest(CONTEXT, `seeds[${index}].value: cypher is invalid: ${err.message}`);
    throw err;
  }
}

/**
 * The node ids of Cypher seeds, deduplicated, each seed within the bounds (and at most `limit` in all when given).
 * Background work (refresh, analysis) passes `quiet`: a seed that fails (past its deadline, or stored before a
 * rule it breaks) then selects nothing instead of failing the run; a preview answers the error.
 */
export async function cypherSeedNodes(
  engine: CypherSeedEngine | undefined,
  queries: readonly string[],
  opts: { limit?: number; quiet?: boolean } = {},
): Promise<number[]> {
  if (!engine || queries.length === 0) return [];
  const out = new Set<number>();
  for (const q of queries) {
    const room = opts.limit === undefined ? CYPHER_SEED_BOUNDS.maxNodes : Math.min(CYPHER_SEED_BOUNDS.maxNodes, opts.limit - out.size);
    if (room <= 0) break;
    let ids: number[];
    try {
      ids = await engine.nodeIds(q, { limit: room, deadlineMs: CYPHER_SEED_BOUNDS.deadlineMs });
    } catch (err) {
      if (opts.quiet && err instanceof AppError && (err.code === 'TIMEOUT' || err.code === 'BAD_REQUEST')) continue;
      throw err;
    }
    for (const id of ids) if (id > 0) out.add(id);
  }
  return [...out];
}
