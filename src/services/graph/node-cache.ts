import DataLoader from 'dataloader';
import type { IconLookup } from '../../graph/format.js';
import type { GraphEdge, GraphNode } from '../../graph/model.js';
import type { EdgeTriple, GraphStore, NodeSummary } from '../../graph/store.js';
import { whenReady, type MaybePromise } from '../../maybe-promise.js';
import { currentScope, runInScope, runOutsideScope } from '../../scope.js';
import type { GraphIndexHolder } from './graph-index-holder.js';

/**
 * What the entity and graph services read nodes through: single nodes, and the summaries a list is sorted and paged
 * from. What is in memory comes back as a plain value.
 */
export interface NodeReader {
  nodeByObjectId(objectid: string): MaybePromise<GraphNode | undefined>;
  nodeSummaries(ids: readonly number[]): MaybePromise<NodeSummary[]>;
  /** Whole nodes by database id (a path's or a list graph's nodes); ids not in the graph are left out. */
  nodesByIds(ids: readonly number[]): MaybePromise<GraphNode[]>;
  /** Edges by start, end and kind; triples not in the graph are left out. */
  edgesByTriples(triples: readonly EdgeTriple[]): MaybePromise<GraphEdge[]>;
}

/** What the services answering an entity panel (graph, entities) are made from. */
export interface PanelDeps {
  store: GraphStore;
  index: GraphIndexHolder;
  /** Single-node reads, shared by the services that answer an entity panel (one memory for both). */
  nodes: NodeReader;
  icons?: () => Promise<IconLookup>;
}

/** Nodes kept at most; past it the cache starts over (a panel's requests for one node come close together). */
const MAX_NODES = 10_000;
/**
 * Node summaries kept at most (~100 bytes each, so ~10 MB): enough for the lists of many panels; past it the
 * memory starts over.
 */
const MAX_SUMMARIES = 100_000;
/** Edges kept at most (a path's or a list graph's, ~200 bytes each with their bounded properties: ~4 MB). */
const MAX_EDGES = 20_000;

/**
 * Nodes by object id, node summaries, whole nodes by id and edges by triple, kept in memory while the graph's epoch
 * stays (GraphIndexHolder.epoch: a local write or a new generation moves it), so an entity panel's requests (the node
 * with its counts, then each list and its pages), a path asked again and repeated look-ups cost no database round
 * trip. What was read while the epoch moved is not kept. Values are frozen: a caller that changed one would change
 * every later answer.
 */
export function cachedNodeReads(
  store: Pick<GraphStore, 'nodesByObjectIds' | 'nodeSummaries' | 'nodesByIds' | 'edgesByTriples'>,
  index: Pick<GraphIndexHolder, 'epoch' | 'observe'>,
  max = MAX_NODES,
  maxSummaries = MAX_SUMMARIES,
): NodeReader {
  const read = batchedNodeReads(store);
  let epoch = -1;
  const nodes = new Map<string, GraphNode | undefined>();
  const kept = () => index.epoch;
  const summaries = keptByKey<number, NodeSummary>(maxSummaries, (s) => s.id, kept);
  const nodesById = keptByKey<number, GraphNode>(max, (n) => n.id, kept);
  const edges = keptByKey<string, GraphEdge>(MAX_EDGES, tripleKey, kept);
  /** Notices another writer's change (at most every checkIntervalMs); never builds an index nor waits for one. */
  const atEpoch = <T>(read: (at: number) => MaybePromise<T>): MaybePromise<T> =>
    whenReady(index.observe(), () => {
      const at = index.epoch;
      if (at !== epoch) {
        nodes.clear();
        summaries.clear();
        nodesById.clear();
        edges.clear();
        epoch = at;
      }
      return read(at);
    });
  return {
    nodeByObjectId: (objectid) =>
      atEpoch((at) => {
        if (nodes.has(objectid)) return nodes.get(objectid);
        return whenReady(read(objectid), (node) => {
          if (index.epoch === at) {
            if (nodes.size >= max) nodes.clear();
            nodes.set(objectid, node && deepFreeze(node));
          }
          return node;
        });
      }),
    nodeSummaries: (ids) => atEpoch((at) => summaries.get(ids, at, (missing) => store.nodeSummaries(missing))),
    nodesByIds: (ids) => atEpoch((at) => nodesById.get(ids, at, (missing) => store.nodesByIds(missing))),
    edgesByTriples: (triples) =>
      atEpoch((at) => {
        const byKey = new Map(triples.map((t) => [tripleKey(t), t]));
        return edges.get([...byKey.keys()], at, (missing) => store.edgesByTriples(missing.map((k) => byKey.get(k)!)));
      }),
  };
}

const tripleKey = (t: EdgeTriple) => `${t.startId}\t${t.endId}\t${t.kind}`;

/**
 * Values by key, kept while the epoch they were read in stays (the caller clears the memory when it moves): `get`
 * answers in the order asked, leaving out keys the store does not have, and reads only what it lacks. What it held
 * is taken when asked, so another request's read kept meanwhile (which may start the memory over) cannot drop it from
 * the answer; a read larger than the whole memory is not kept.
 */
function keptByKey<K, V>(max: number, keyOf: (v: V) => K, epochNow: () => number) {
  const kept = new Map<K, V>();
  return {
    clear: () => kept.clear(),
    get(keys: readonly K[], at: number, load: (missing: K[]) => Promise<V[]>): MaybePromise<V[]> {
      const held = keys.map((k) => kept.get(k));
      const missing = keys.filter((_, i) => held[i] === undefined);
      if (!missing.length) return held as V[];
      return whenReady(load(missing), (read) => {
        const byKey = new Map(read.map((v) => [keyOf(v), v]));
        const answer = keys.flatMap((k, i) => held[i] ?? byKey.get(k) ?? []);
        if (epochNow() === at && read.length <= max) {
          if (kept.size + read.length > max) kept.clear();
          for (const v of read) kept.set(keyOf(v), deepFreeze(v));
        }
        return answer;
      });
    },
  };
}

/** Object ids one query reads at most. */
const MAX_BATCH = 500;

/**
 * Nodes the memory lacks, read for requests that arrive together in one query: every read asked for before the event
 * loop's next check phase (`setImmediate`, after the I/O callbacks that parsed those requests) goes in one
 * `objectid = any(…)`. Under load, panels opening different nodes (the http-graph bench's random users) made a round
 * trip each. A lone request waits one turn of the loop. The query runs in a scope of its own, bound by the latest
 * deadline among its requests: one request's deadline or departure must not cancel the read the others wait on, and
 * each request still answers 504 at its own deadline.
 */
function batchedNodeReads(store: Pick<GraphStore, 'nodesByObjectIds'>): (objectid: string) => Promise<GraphNode | undefined> {
  const never = new AbortController().signal;
  const loader = new DataLoader<{ objectid: string; deadline: number | undefined }, GraphNode | undefined>(
    async (keys) => {
      const objectids = keys.map((k) => k.objectid);
      const deadline = keys.some((k) => k.deadline === undefined) ? undefined : Math.max(...keys.map((k) => k.deadline!));
      const nodes =
        deadline === undefined
          ? await store.nodesByObjectIds(objectids)
          : await runInScope({ requestId: 'batched-node-read', deadline, signal: never }, () => store.nodesByObjectIds(objectids));
      const byId = new Map(nodes.map((n) => [n.objectid, n]));
      return objectids.map((o) => byId.get(o));
    },
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (run) => runOutsideScope(() => setImmediate(run)) },
  );
  return (objectid) => loader.load({ objectid, deadline: currentScope()?.deadline });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
