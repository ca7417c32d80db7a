import type { GraphStore } from '../store.js';
import { compressedRows, type Csr } from './csr.js';
import { IntList } from './growable.js';

/**
 * One direction of the index for walks that go either way: the row offsets, the node at the other end of each
 * slot, and each slot's edge as a position in the out arrays (null outbound, where slot and position coincide).
 */
export interface Side {
  offsets: Int32Array;
  others: Int32Array;
  edges: Int32Array | null;
}

/**
 * The graph's structure in memory for traversals: compressed sparse rows in both directions (edge kinds as the
 * store's small integers), a kind bitset per node (as many 32-bit words as the graph has node kinds need), and the two node facts traversals need (domainsid, whether an
 * OU blocks GPO inheritance). Nodes are numbered densely; `dbId` maps back to the store's ids.
 * Memory: about 11 bytes per edge and 13 + 4 × ⌈kinds / 32⌉ per node.
 */
export class GraphIndex {
  readonly nodeCount: number;
  readonly edgeCount: number;
  /** dense → store id */
  readonly dbIds: Float64Array;
  /** Node kind bitsets: node `d` owns words [d × kindWords, (d + 1) × kindWords). */
  readonly kindMask: Uint32Array;
  readonly kindWords: number;
  readonly domainSid: Int32Array;
  readonly blocksInheritance: Uint8Array;
  readonly outOffsets: Int32Array;
  readonly outTargets: Int32Array;
  readonly outKinds: Uint16Array;
  /** EDGE_FLAG bits (GPLink enforced, isacl) */
  readonly outFlags: Uint8Array;
  readonly inOffsets: Int32Array;
  readonly inSources: Int32Array;
  /** For each inbound slot, the position of the same edge in the out arrays. */
  readonly inEdge: Int32Array;

  private readonly denseById?: Int32Array;
  private outSide?: Side;
  private readonly kindSets = new Map<string, Uint8Array>();
  private markTable?: Int32Array;
  private markStamp = 0;
  private inSide?: Side;
  private readonly nodeKindBits = new Map<string, number>();
  private readonly edgeKindIds = new Map<string, number>();
  private readonly sids: string[];
  private readonly sidIds = new Map<string, number>();

  private constructor(
    readonly generation: number,
    nodes: NodeParts,
    csr: Csr,
    readonly edgeKindNames: Map<number, string>,
  ) {
    this.nodeCount = nodes.ids.length;
    this.edgeCount = csr.outTargets.length;
    this.dbIds = nodes.ids;
    this.kindMask = nodes.masks;
    this.kindWords = nodes.kindWords;
    this.domainSid = nodes.sids;
    this.blocksInheritance = nodes.blocks;
    this.sids = nodes.sidNames;
    nodes.sidNames.forEach((s, i) => this.sidIds.set(s, i));
    this.nodeKindBits = nodes.nodeKindBits;
    for (const [id, name] of edgeKindNames) this.edgeKindIds.set(name, id);

    this.denseById = nodes.denseById;

    this.outOffsets = csr.outOffsets;
    this.outTargets = csr.outTargets;
    this.outKinds = csr.outKinds;
    this.outFlags = csr.outFlags;
    this.inOffsets = csr.inOffsets;
    this.inSources = csr.inSources;
    this.inEdge = csr.inEdge;
  }

  /**
   * Loads the whole graph structure from the store. An aborted `signal` ends the build at its next batch with the
   * signal's reason (a server stopping does not wait for a build nobody is waiting for).
   */
  static async build(store: GraphStore, signal?: AbortSignal): Promise<GraphIndex> {
    return GraphIndex.fromParts(await GraphIndex.buildParts(store, signal));
  }

  /**
   * An index from parts built elsewhere (a worker thread's buildParts, its arrays transferred): no copy, no scan.
   */
  static fromParts(parts: GraphIndexParts): GraphIndex {
    return new GraphIndex(parts.generation, parts.nodes, parts.csr, parts.edgeKindNames);
  }

  /**
   * What build loads, as plain data: typed arrays (see transferables) and small maps, which a worker thread can
   * post to the thread that serves. Aborting `signal` ends it as build's does.
   */
  static async buildParts(store: GraphStore, signal?: AbortSignal): Promise<GraphIndexParts> {
    signal?.throwIfAborted();
    const generation = await store.generation();
    const ids: number[] = [];
    // Kind numbers per node, flattened (offsets in kindStart): the number of kinds is known only after the scan.
    const nodeKinds = new IntList(1 << 16);
    const kindStart: number[] = [0];
    const sids: number[] = [];
    const blocks: number[] = [];
    const sidNames: string[] = [];
    const sidIndex = new Map<string, number>();
    const nodeKindBits = new Map<string, number>();
    await store.scanNodes(['domainsid', 'blocksinheritance'], (rows) => {
      signal?.throwIfAborted();
      for (const r of rows) {
        for (const k of r.kinds) {
          let bit = nodeKindBits.get(k);
          if (bit === undefined) nodeKindBits.set(k, (bit = nodeKindBits.size));
          nodeKinds.push(bit);
        }
        kindStart.push(nodeKinds.length);
        const sid = r.properties.domainsid;
        let sidId = -1;
        if (typeof sid === 'string') {
          sidId = sidIndex.get(sid) ?? -1;
          if (sidId === -1) {
            sidId = sidNames.push(sid) - 1;
            sidIndex.set(sid, sidId);
          }
        }
        ids.push(r.id);
        sids.push(sidId);
        blocks.push(r.properties.blocksinheritance === true ? 1 : 0);
      }
    });
    const kindWords = Math.max(1, Math.ceil(nodeKindBits.size / 32));
    const masks = new Uint32Array(ids.length * kindWords);
    const flat = nodeKinds.toArray();
    for (let i = 0; i < ids.length; i++) {
      for (let j = kindStart[i]!; j < kindStart[i + 1]!; j++) {
        const bit = flat[j]!;
        masks[i * kindWords + (bit >>> 5)]! |= 1 << (bit & 31);
      }
    }
    const nodes: NodeParts = {
      ids: Float64Array.from(ids),
      masks,
      kindWords,
      sids: Int32Array.from(sids),
      blocks: Uint8Array.from(blocks),
      sidNames,
      nodeKindBits,
      denseById: denseTable(ids),
    };
    // Dense numbering follows store ids, which scans return in increasing order. A typed table when ids are
    // compact (the usual case): the profile showed Map.get per edge end as the build's largest JS cost.
    const table = nodes.denseById;
    const map = table ? undefined : new Map(ids.map((id, i) => [id, i]));
    const dense = (id: number): number => (table ? (id < table.length ? table[id]! : -1) : (map!.get(id) ?? -1));
    const start = new IntList(1 << 16);
    const end = new IntList(1 << 16);
    const kind = new IntList(1 << 16);
    const flags = new IntList(1 << 16);
    await store.scanEdges((batch) => {
      signal?.throwIfAborted();
      for (let i = 0; i < batch.start.length; i++) {
        const s = dense(batch.start[i]!);
        const t = dense(batch.end[i]!);
        if (s < 0 || t < 0) continue; // written after the node scan; the next build has it
        start.push(s);
        end.push(t);
        kind.push(batch.kind[i]!);
        flags.push(batch.flags[i]!);
      }
    });
    signal?.throwIfAborted();
    const csr = await compressedRows(ids.length, {
      start: start.toArray(),
      end: end.toArray(),
      // The typed-array constructors convert in one native pass (`from` iterates element by element).
      kind: new Uint16Array(kind.toArray()),
      flags: new Uint8Array(flags.toArray()),
    });
    return { generation, nodes, csr, edgeKindNames: await store.kindNames() };
  }

  /** Bytes held in typed arrays (the structure; maps of names are small and not counted). */
  byteSize(): number {
    const arrays = [
      this.dbIds,
      this.kindMask,
      this.domainSid,
      this.blocksInheritance,
      this.outOffsets,
      this.outTargets,
      this.outKinds,
      this.outFlags,
      this.inOffsets,
      this.inSources,
      this.inEdge,
      this.denseById,
    ];
    return arrays.reduce((sum, a) => sum + (a?.byteLength ?? 0), 0);
  }

  /** The outbound or inbound rows as one shape (see Side). */
  side(dir: 'out' | 'in'): Side {
    return dir === 'out'
      ? (this.outSide ??= { offsets: this.outOffsets, others: this.outTargets, edges: null })
      : (this.inSide ??= { offsets: this.inOffsets, others: this.inSources, edges: this.inEdge });
  }

  /**
   * The first position of `u`'s row on `side` whose edge kind is at least `kind`: rows are sorted by kind, so a
   * kind's edges are [kindStart(kind), kindStart(kind + 1)). No allocation: traversals call it per visited node.
   */
  kindStart(side: Side, u: number, kind: number): number {
    const kinds = this.outKinds;
    const edges = side.edges;
    let lo = side.offsets[u]!;
    let hi = side.offsets[u + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (kinds[edges ? edges[mid]! : mid]! < kind) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * A table of one stamp per node and a fresh stamp: `table[n] === stamp` means "n seen" for one traversal. Shared,
   * so only synchronous traversals that do not nest may use it (each call starts a new, empty set of marks).
   */
  marks(): { table: Int32Array; stamp: number } {
    this.markTable ??= new Int32Array(this.nodeCount);
    if (++this.markStamp === 0x7fffffff) {
      this.markTable.fill(0);
      this.markStamp = 1;
    }
    return { table: this.markTable, stamp: this.markStamp };
  }

  /** Dense number of a store id, or -1. */
  dense(dbId: number): number {
    if (this.denseById) return dbId < this.denseById.length ? this.denseById[dbId]! : -1;
    let lo = 0;
    let hi = this.nodeCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.dbIds[mid]!;
      if (v === dbId) return mid;
      if (v < dbId) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The start node of the edge at out position `pos` (binary search over the row offsets). */
  edgeStart(pos: number): number {
    let lo = 0;
    let hi = this.nodeCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.outOffsets[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  dbId(dense: number): number {
    return this.dbIds[dense]!;
  }

  /** The bit number of a node kind, or -1 when the graph has no node of that kind (so tests against it are false). */
  kindBit(kind: string): number {
    return this.nodeKindBits.get(kind) ?? -1;
  }

  /** Every node kind's name, by bit number (the Cypher engine lists a node's labels from its bitset). */
  nodeKindNames(): string[] {
    const names: string[] = [];
    for (const [name, bit] of this.nodeKindBits) names[bit] = name;
    return names;
  }

  hasKind(dense: number, bit: number): boolean {
    if (bit < 0) return false;
    return (this.kindMask[dense * this.kindWords + (bit >>> 5)]! & (1 << (bit & 31))) !== 0;
  }

  edgeKindId(name: string): number {
    return this.edgeKindIds.get(name) ?? -1;
  }

  edgeKindName(id: number): string {
    return this.edgeKindNames.get(id) ?? 'Unknown';
  }

  /**
   * A membership table over edge kind ids (for filters). Kept per list of names: callers only read it, and a
   * 64 KiB table per call was garbage on every entity count request.
   */
  kindSet(names: Iterable<string>): Uint8Array {
    const list = [...names];
    const key = list.join('\u0000');
    let set = this.kindSets.get(key);
    if (set) return set;
    set = new Uint8Array(65536);
    for (const n of list) {
      const id = this.edgeKindIds.get(n);
      if (id !== undefined) set[id] = 1;
    }
    if (this.kindSets.size < 256) this.kindSets.set(key, set);
    return set;
  }

  sidOf(dense: number): string | undefined {
    const i = this.domainSid[dense]!;
    return i === -1 ? undefined : this.sids[i];
  }

  sidId(sid: string): number {
    return this.sidIds.get(sid) ?? -2;
  }
}

/** The node side of an index: dense numbering, kind bitsets, domain sids (by number into sidNames), OU flags. */
export interface NodeParts {
  ids: Float64Array;
  masks: Uint32Array;
  kindWords: number;
  sids: Int32Array;
  blocks: Uint8Array;
  sidNames: string[];
  nodeKindBits: Map<string, number>;
  denseById?: Int32Array;
}

/** An index as plain data (structured-clonable): GraphIndex.buildParts makes it, GraphIndex.fromParts takes it. */
export interface GraphIndexParts {
  generation: number;
  nodes: NodeParts;
  csr: Csr;
  edgeKindNames: Map<number, string>;
}

/**
 * The buffers of the parts' typed arrays, to post them without a copy (moved: the sender's arrays are emptied).
 * Every array owns its whole buffer (buildParts allocates each), so moving one moves nothing else.
 */
export function transferables(parts: GraphIndexParts): ArrayBuffer[] {
  const { nodes, csr } = parts;
  const arrays = [nodes.ids, nodes.masks, nodes.sids, nodes.blocks, nodes.denseById, ...Object.values(csr)] as (
    ArrayBufferView | undefined
  )[];
  return [...new Set(arrays.filter((a) => a !== undefined).map((a) => a.buffer as ArrayBuffer))];
}

/** Store id → dense number as a table (-1: absent), when ids are compact enough for one; ids ascend. */
function denseTable(ids: readonly number[]): Int32Array | undefined {
  const maxId = ids.length ? ids[ids.length - 1]! : 0;
  if (maxId >= 4 * ids.length + 1_000_000) return undefined;
  const table = new Int32Array(maxId + 1).fill(-1);
  ids.forEach((id, i) => (table[id] = i));
  return table;
}
