import type { EdgeInput, NodeInput, Properties } from './model.js';
import { boundProperties } from './pg/bounds.js';
import { baseKindOf, EdgeMerge, mergeNodes } from './pg/merge.js';

/**
 * A batch of nodes and edges merged (one row per node, one per edge key) and encoded for a bulk writer, holding
 * only strings and typed arrays: it can be made in a worker thread and cross to the writer's thread cheaply (no
 * object per edge to clone). Kinds are referred to by their index in `kinds`, so whoever prepares a batch needs no
 * database; the writer maps the names to its own ids.
 */
export interface PreparedBatch {
  kinds: string[];
  nodes: PreparedNodes[];
  edges: PreparedEdges[];
}

export interface PreparedNodes {
  objectids: string[];
  /** Each node's kinds as indexes into the batch's `kinds`, comma-separated ("0,3"). */
  kinds: string[];
  /** Each node's properties (bounded) as JSON. */
  properties: string[];
}

export interface PreparedEdges {
  /** Each endpoint once, with the most specific kinds any of the slice's edges gives it and a lastseen as text. */
  endpoints: { objectids: string[]; kinds: string[]; seen: (string | null)[] };
  /** Per edge: indexes into `endpoints`, into the batch's `kinds`, into `propTexts`. */
  start: Int32Array;
  end: Int32Array;
  kind: Int32Array;
  props: Int32Array;
  /** Distinct property sets (bounded) as JSON. */
  propTexts: string[];
}

/** Rows per slice (one COPY, one merge): large enough that per-statement costs vanish, small enough to stream. */
export const SLICE_ROWS = 20_000;
/** Rows prepared between two calls of `pause` (the writer's thread answers its statements in between). */
const PAUSE_EVERY = 2_000;

/**
 * Merges and encodes nodes and edges. `pause` is awaited every few thousand rows: on the writer's own thread it
 * yields to the event loop, so the statements of the write in flight are answered promptly.
 */
export async function prepareBatch(
  nodes: readonly NodeInput[] | undefined,
  edges: readonly EdgeInput[] | undefined,
  pause?: () => Promise<void>,
): Promise<PreparedBatch> {
  const kinds = new KindTable();
  const out: PreparedBatch = { kinds: kinds.names, nodes: [], edges: [] };
  // Whether to pause after row i, checked before awaiting anything: an await per row (a promise and a microtask turn
  // each, 1.9 million at tier M) was an eighth of the conversion worker's CPU, where nothing pauses at all.
  const due = (i: number) => pause !== undefined && i % PAUSE_EVERY === PAUSE_EVERY - 1;
  const merged = nodes?.length ? mergeNodes(nodes as NodeInput[]) : [];
  for (let i = 0; i < merged.length; i += SLICE_ROWS) {
    const slice: PreparedNodes = { objectids: [], kinds: [], properties: [] };
    for (let j = i; j < Math.min(merged.length, i + SLICE_ROWS); j++) {
      const n = merged[j]!;
      slice.objectids.push(n.objectid);
      slice.kinds.push(n.kinds.map((k) => kinds.index(k)).join(','));
      slice.properties.push(JSON.stringify(boundProperties(n.properties)));
      if (due(j)) await pause!();
    }
    out.nodes.push(slice);
  }
  if (!edges?.length) return out;
  const merge = new EdgeMerge();
  for (let i = 0; i < edges.length; i++) {
    merge.add(edges[i]!);
    if (due(i)) await pause!();
  }
  const list = merge.result(edges as EdgeInput[]);
  const ids = merge.endpointIds();
  const slots = new EndpointSlots(ids.endpoints);
  for (let i = 0; i < list.length; i += SLICE_ROWS) {
    const n = Math.min(list.length, i + SLICE_ROWS) - i;
    const slice = new EdgeSlice(kinds, n, slots);
    for (let j = 0; j < n; j++) {
      slice.add(j, list[i + j]!, ids.start[i + j]!, ids.end[i + j]!);
      if (due(j)) await pause!();
    }
    out.edges.push(slice.done());
  }
  return out;
}

/** Kind names by first use; also every name an edge needs (its kind, its endpoints' kinds and base kinds). */
class KindTable {
  readonly names: string[] = [];
  private readonly byName = new Map<string, number>();
  /** Index lists of an endpoint kind (base kind, and the kind itself when more specific), by kind. */
  private readonly endpointLists = new Map<string | undefined, string>();

  index(name: string): number {
    let i = this.byName.get(name);
    if (i === undefined) {
      this.byName.set(name, (i = this.names.length));
      this.names.push(name);
    }
    return i;
  }

  endpointKinds(kind: string | undefined): string {
    let list = this.endpointLists.get(kind);
    if (list === undefined) {
      const base = baseKindOf(kind);
      list = kind && kind !== base ? `${this.index(base)},${this.index(kind)}` : `${this.index(base)}`;
      this.endpointLists.set(kind, list);
    }
    return list;
  }
}

/** Encodings of frozen (shared, never changed) property sets: converters share one object per repeated set. */
const encoded = new WeakMap<Properties, string>();

function propsText(p: Properties): string {
  if (!Object.isFrozen(p)) return JSON.stringify(boundProperties(p));
  let text = encoded.get(p);
  if (text === undefined) encoded.set(p, (text = JSON.stringify(boundProperties(p))));
  return text;
}

/**
 * A slice's index of each of the batch's endpoints, by the id the edge merge gave it (an array read where a map of
 * object ids was hashed twice per edge); an entry counts only for the slice whose number it carries.
 */
class EndpointSlots {
  readonly index: Int32Array;
  readonly slice: Int32Array;
  private slices = 0;

  constructor(endpoints: number) {
    this.index = new Int32Array(endpoints);
    this.slice = new Int32Array(endpoints).fill(-1);
  }

  next(): number {
    return this.slices++;
  }
}

class EdgeSlice {
  private readonly out: PreparedEdges;
  private readonly shared = new Map<Properties, number>();
  private readonly no: number;

  constructor(
    private readonly kinds: KindTable,
    rows: number,
    private readonly slots: EndpointSlots,
  ) {
    this.no = slots.next();
    this.out = {
      endpoints: { objectids: [], kinds: [], seen: [] },
      start: new Int32Array(rows),
      end: new Int32Array(rows),
      kind: new Int32Array(rows),
      props: new Int32Array(rows),
      propTexts: [],
    };
  }

  /** Adds edge `j` of the slice; `start` and `end` are its endpoints' ids from the edge merge. */
  add(j: number, e: EdgeInput, start: number, end: number): void {
    const seen = e.properties.lastseen ?? null;
    this.out.start[j] = this.endpoint(start, e.start, e.startKind, seen);
    this.out.end[j] = this.endpoint(end, e.end, e.endKind, seen);
    this.out.kind[j] = this.kinds.index(e.kind);
    this.out.props[j] = this.props(e.properties);
  }

  done(): PreparedEdges {
    return this.out;
  }

  private props(p: Properties): number {
    const texts = this.out.propTexts;
    if (!Object.isFrozen(p)) return texts.push(propsText(p)) - 1;
    let i = this.shared.get(p);
    if (i === undefined) this.shared.set(p, (i = texts.push(propsText(p)) - 1));
    return i;
  }

  /** The endpoint's index; a later edge that gives it more specific kinds (a type besides the base) wins. */
  private endpoint(id: number, objectid: string, kind: string | undefined, seen: unknown): number {
    const kinds = this.kinds.endpointKinds(kind);
    const ep = this.out.endpoints;
    let i: number;
    if (this.slots.slice[id] !== this.no) {
      this.slots.slice[id] = this.no;
      this.slots.index[id] = i = ep.objectids.push(objectid) - 1;
      ep.kinds.push(kinds);
      ep.seen.push(seen === null || seen === undefined ? null : typeof seen === 'string' ? seen : JSON.stringify(seen));
    } else {
      i = this.slots.index[id]!;
      if (!ep.kinds[i]!.includes(',') && kinds.includes(',')) ep.kinds[i] = kinds;
    }
    return i;
  }
}

/** The transferable parts of a batch, for postMessage: typed arrays move between threads instead of being copied. */
export function transferList(batch: PreparedBatch): ArrayBuffer[] {
  return batch.edges.flatMap((s) => [s.start.buffer, s.end.buffer, s.kind.buffer, s.props.buffer]) as ArrayBuffer[];
}
