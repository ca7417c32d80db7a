import type { IconLookup } from '../graph/format.js';
import type { GraphNode } from '../graph/model.js';
import type { GraphStore } from '../graph/store.js';
import { whenReady, type MaybePromise } from '../maybe-promise.js';
import type { GraphIndexHolder } from './graph-index-holder.js';

/** What the entity and graph services read a single node through; a node in memory comes back as a plain value. */
export interface NodeReader {
  nodeByObjectId(objectid: string): MaybePromise<GraphNode | undefined>;
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
 * Nodes by object id kept in memory while the graph's epoch stays (GraphIndexHolder.epoch: a local write or a new
 * generation moves it), so an entity panel's requests (the node with its counts, then each list) and repeated
 * look-ups cost no database round trip. A node read while the epoch moved is not kept. Nodes are frozen: a caller
 * that changed one would change every later answer.
 */
export function cachedNodeReads(store: NodeReader, index: Pick<GraphIndexHolder, 'epoch' | 'observe'>, max = MAX_NODES): NodeReader {
  let epoch = -1;
  const nodes = new Map<string, GraphNode | undefined>();
  return {
    nodeByObjectId(objectid: string) {
      // Notices another writer's change (at most every checkIntervalMs); never builds an index nor waits for one, so
      // look-ups are kept from the start, not only once someone has asked for a path.
      return whenReady(index.observe(), () => {
        const at = index.epoch;
        if (at !== epoch) {
          nodes.clear();
          epoch = at;
        }
        if (nodes.has(objectid)) return nodes.get(objectid);
        return whenReady(store.nodeByObjectId(objectid), (node) => {
          if (index.epoch === at) {
            if (nodes.size >= max) nodes.clear();
            nodes.set(objectid, node && deepFreeze(node));
          }
          return node;
        });
      });
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
