import { execute, prepare, type PreparedQuery, type QueryResult } from '../../cypher/engine.js';
import { CypherError } from '../../cypher/errors.js';
import type { Limits } from '../../cypher/execute/context.js';
import { LiveGraph, type TagKinds } from '../../cypher/graph/live-graph.js';
import type { TagMembersStore } from '../../db/stores/cypher/tag-members-store.js';
import { AppError, badRequest, timeout } from '../../errors.js';
import type { GraphIndex } from '../../graph/index/graph-index.js';
import type { GraphStore } from '../../graph/store.js';
import { currentScope } from '../../scope.js';
import type { GraphIndexHolder } from '../graph/graph-index-holder.js';
import type { NodeReader } from '../graph/node-cache.js';
import { graphResult, nodeIdsOf, type CypherResult, type Truncation } from './graph-result.js';

const CONTEXT = 'cypher';

/** The caps of one answer; a query past one is cut there and the answer names the cap (CypherResult.truncated). */
export interface CypherLimits extends Limits {
  maxRows: number;
  maxNodes: number;
  maxEdges: number;
}

export const DEFAULT_CYPHER_LIMITS: CypherLimits = {
  maxRows: 50_000,
  maxNodes: 20_000,
  maxEdges: 50_000,
  maxHeldValues: 5_000_000,
  maxUnboundedHops: 15,
  maxShortestPaths: 1000,
};

export interface CypherRunOptions {
  /** `$name` parameters (JSON). */
  params?: Record<string, unknown> | null;
  /** Properties of nodes and edges in the answer (BloodHound's include_properties); kinds and names always. */
  includeProperties?: boolean | null;
  /** Epoch milliseconds; by default the request's deadline (Prefer: wait). */
  deadline?: number;
  signal?: AbortSignal;
  limits?: Partial<CypherLimits>;
}

/**
 * The seam for a per-user gate on costly work: called before a query runs, it resolves with a release function
 * once the caller may go ahead (or rejects to refuse). None by default: every query runs at once.
 */
export type AdmitCostly = (work: { area: 'cypher'; userId?: string }) => Promise<() => void>;

export interface CypherDeps {
  index: GraphIndexHolder;
  store: Pick<GraphStore, 'nodePropertyColumn' | 'edgePropertyColumn'>;
  nodes: NodeReader;
  tags: TagMembersStore;
  admit?: AdmitCostly;
  limits?: Partial<CypherLimits>;
}

/** Zone memberships are read again at most this often (they change without the graph changing). */
const TAGS_TTL_MS = 1000;

/**
 * Read-only openCypher over the graph: BloodHound's `POST /api/v2/graphs/cypher`, GraphQL's `cypher`, and the
 * queries other areas keep (saved queries, zones' Cypher seeds). Errors are AppErrors: 400 for a query that cannot
 * run (syntax with line and column, unsupported constructs, writing clauses, limits), 504 past the deadline.
 */
export function createCypherService(deps: CypherDeps) {
  const limits = { ...DEFAULT_CYPHER_LIMITS, ...deps.limits };
  const graphs = new WeakMap<GraphIndex, LiveGraph>();
  let tags: { at: number; value: TagKinds } | undefined;

  async function tagKinds(): Promise<TagKinds> {
    if (tags && Date.now() - tags.at < TAGS_TTL_MS) return tags.value;
    const byKind = new Map<string, Set<number>>();
    for (const m of await deps.tags.members()) {
      const kind = m.tagType === 3 ? 'Tag_Owned' : `Tag_${m.tagName.trim().replace(/\s+/g, '_')}`;
      let set = byKind.get(kind);
      if (!set) byKind.set(kind, (set = new Set()));
      set.add(m.nodeId);
    }
    tags = { at: Date.now(), value: byKind };
    return byKind;
  }

  async function liveGraph(): Promise<LiveGraph> {
    const index = await deps.index.current();
    let g = graphs.get(index);
    if (!g) {
      g = new LiveGraph(index, {
        column: (key) => deps.store.nodePropertyColumn(key),
        relColumn: (key) => deps.store.edgePropertyColumn(key),
        nodes: async (ids) => deps.nodes.nodesByIds(ids),
        edges: async (triples) => deps.nodes.edgesByTriples(triples),
      });
      graphs.set(index, g);
    }
    g.setTags(await tagKinds());
    return g;
  }

  function validate(query: string): PreparedQuery {
    if (typeof query !== 'string' || !query.trim()) throw badRequest(CONTEXT, 'query is required: a Cypher query.');
    try {
      return prepare(query);
    } catch (err) {
      throw asAppError(err);
    }
  }

  async function runPrepared(
    p: PreparedQuery,
    opts: CypherRunOptions,
  ): Promise<{ result: QueryResult; graph: LiveGraph; lim: CypherLimits }> {
    const lim = { ...limits, ...opts.limits };
    const scope = currentScope();
    const release = deps.admit ? await deps.admit({ area: 'cypher' }) : undefined;
    try {
      const graph = await liveGraph();
      const result = await execute(p, graph, {
        params: opts.params ?? {},
        limits: lim,
        deadline: opts.deadline ?? scope?.deadline,
        signal: opts.signal ?? scope?.signal,
        maxRows: lim.maxRows,
      });
      return { result, graph, lim };
    } catch (err) {
      throw asAppError(err);
    } finally {
      release?.();
    }
  }

  return {
    /** Parses and checks a query: the prepared query, or a 400 naming what is wrong. Saved queries call it before storing. */
    validate,

    /** Runs a query: its graph (nodes, edges), its literals and its table. */
    async run(query: string, opts: CypherRunOptions = {}): Promise<CypherResult> {
      const p = validate(query);
      const { result, graph, lim } = await runPrepared(p, opts);
      const rowsCut: Truncation[] = result.truncated ? [{ limit: 'rows', cap: lim.maxRows }] : [];
      const answer = await graphResult(result, graph, deps.nodes, lim, rowsCut);
      if (!opts.includeProperties) {
        for (const n of answer.nodes) n.properties = {};
        for (const e of answer.edges) e.properties = {};
      }
      return answer;
    },

    /** The store ids of every node a query returns (nodes, relationships' ends, paths' nodes): zones' Cypher seeds. */
    async nodeIds(query: string, opts: CypherRunOptions = {}): Promise<number[]> {
      const p = validate(query);
      const { result, graph } = await runPrepared(p, opts);
      return nodeIdsOf(result, graph);
    },
  };
}

export type CypherService = ReturnType<typeof createCypherService>;

function asAppError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (!(err instanceof CypherError)) return err;
  if (err.kind === 'timeout') return timeout(CONTEXT, err.message);
  return badRequest(CONTEXT, err.message);
}
