import type { GraphIndex } from '../../graph/index/graph-index.js';
import { EDGE_FLAG } from '../../graph/store.js';
import { allShortestPaths } from '../../graph/index/shortest-paths.js';
import type { Direction } from '../model/ast.js';
import { fromJson, RelV, type MapValue, type Value } from '../execute/values.js';
import { NeedData, type CypherGraph, type Reach, type Step } from './graph.js';
import { buildRelColumn, relColumnValue, type RelColumn } from './rel-column.js';

/** Where the live graph reads what the path index does not hold (the graph store, through the node memory). */
export interface LiveSources {
  /** One property of every node that has it, by store id. */
  column(key: string): Promise<{ ids: number[]; values: unknown[] }>;
  /** Whole nodes' properties by store id. */
  nodes(ids: readonly number[]): Promise<{ id: number; properties: Record<string, unknown> }[]>;
  /** One property of every edge that has it, by store ids of its ends and its kind. */
  relColumn(key: string): Promise<{ starts: number[]; ends: number[]; kinds: string[]; values: unknown[] }>;
  /** Edges' properties by start, end and kind. */
  edges(
    triples: readonly { startId: number; endId: number; kind: string }[],
  ): Promise<{ startId: number; endId: number; kind: string; properties: Record<string, unknown> }[]>;
}

/** Zone and label memberships as tag kinds (`Tag_Tier_Zero`, `Tag_Owned`, …), by store id. */
export type TagKinds = ReadonlyMap<string, ReadonlySet<number>>;

/** Columns kept per graph at most; the oldest is dropped past it (each is ~1-4 MB at tier M). */
const MAX_COLUMNS = 64;

/** Relationships read one by one for a key before its whole column is read. */
const REL_READS_BEFORE_COLUMN = 16;

/** A step's relationship before its first one. */
const NO_REL = new RelV(-1, -1, -1, '');

/** One property of every node that has it, by dense node number. */
type Column = Map<number, Value> | (Value | undefined)[];
/** A column is an array when at least one node in this many has the key (8 bytes a node against a map's ~40 an entry). */
const DENSE_SHARE = 5;

/**
 * The service's graph for Cypher. Structure comes from the in-memory path index (dense node numbers, kind bitsets,
 * both CSR directions); a relationship's id is its position in the index's out arrays. Node properties are read
 * as columns, one per key, each loaded once from PostgreSQL on first use and kept with this index (a rebuild after
 * any write makes a new LiveGraph, so they never go stale); whole property maps and edge properties are read by
 * the element, on demand. Tag kinds of zones and labels join each node's own kinds, and `system_tags` shows them
 * as BloodHound writes it (admin_tier_0, owned).
 */
export class LiveGraph implements CypherGraph {
  private readonly columns = new Map<string, Column>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly full = new Map<number, MapValue>();
  private readonly relProps = new Map<number, MapValue>();
  private readonly relLoading = new Map<number, Promise<void>>();
  private readonly relColumns = new Map<string, RelColumn>();
  private readonly relMisses = new Map<string, number>();
  private readonly relColumnLoading = new Map<string, Promise<void>>();
  private readonly byLabel = new Map<string, Int32Array>();
  private readonly lookups = new Map<string, Map<string, number[]>>();
  private kindNames: string[];
  private tags: TagKinds = new Map();
  private tagsByDense = new Map<number, string[]>();

  constructor(
    readonly index: GraphIndex,
    private readonly sources: LiveSources,
  ) {
    this.kindNames = index.nodeKindNames();
  }

  /** The zone memberships to show as kinds (read per query: zones change without the graph changing). */
  setTags(tags: TagKinds): void {
    if (tags === this.tags) return;
    this.tags = tags;
    this.tagsByDense = new Map();
    for (const [kind, members] of tags) {
      for (const id of members) {
        const d = this.index.dense(id);
        if (d < 0) continue;
        const list = this.tagsByDense.get(d);
        if (list) list.push(kind);
        else this.tagsByDense.set(d, [kind]);
      }
    }
    this.byLabel.clear();
  }

  async prepare(keys: readonly string[], _allProperties: boolean): Promise<void> {
    await Promise.all(keys.map((k) => this.loadColumn(k)));
  }

  private loadColumn(key: string): Promise<void> {
    if (this.columns.has(key)) return Promise.resolve();
    let p = this.loading.get(key);
    if (!p) {
      p = this.sources.column(key).then(({ ids, values }) => {
        // Read once per node a query visits: an array by dense number when most nodes have the key, else a map.
        const col: Column =
          ids.length * DENSE_SHARE >= this.index.nodeCount ? new Array<Value | undefined>(this.index.nodeCount) : new Map();
        for (let i = 0; i < ids.length; i++) {
          const d = this.index.dense(ids[i]!);
          if (d < 0) continue;
          if (col instanceof Map) col.set(d, fromJson(values[i]));
          else col[d] = fromJson(values[i]);
        }
        if (this.columns.size >= MAX_COLUMNS) this.columns.delete(this.columns.keys().next().value!);
        this.columns.set(key, col);
        this.loading.delete(key);
      });
      p.catch(() => this.loading.delete(key));
      this.loading.set(key, p);
    }
    return p;
  }

  *nodes(): Iterable<number> {
    for (let d = 0; d < this.index.nodeCount; d++) yield d;
  }

  nodeCount(): number {
    return this.index.nodeCount;
  }

  private labelled(label: string): Int32Array {
    let list = this.byLabel.get(label);
    if (!list) {
      const found: number[] = [];
      const bit = this.index.kindBit(label);
      if (bit >= 0) for (let d = 0; d < this.index.nodeCount; d++) if (this.index.hasKind(d, bit)) found.push(d);
      const tagged = this.tags.get(label);
      if (tagged) {
        const seen = new Set(found);
        for (const id of tagged) {
          const d = this.index.dense(id);
          if (d >= 0 && !seen.has(d)) found.push(d);
        }
        found.sort((a, b) => a - b);
      }
      list = Int32Array.from(found);
      this.byLabel.set(label, list);
    }
    return list;
  }

  nodesWithLabel(label: string): Iterable<number> {
    return this.labelled(label);
  }

  labelCount(label: string): number {
    return this.labelled(label).length;
  }

  hasLabel(node: number, label: string): boolean {
    if (this.index.hasKind(node, this.index.kindBit(label))) return true;
    return this.tagsByDense.get(node)?.includes(label) ?? false;
  }

  labels(node: number): string[] {
    const out: string[] = [];
    const words = this.index.kindWords;
    for (let w = 0; w < words; w++) {
      let bits = this.index.kindMask[node * words + w]!;
      while (bits) {
        const b = 31 - Math.clz32(bits & -bits);
        out.push(this.kindNames[w * 32 + b]!);
        bits &= bits - 1;
      }
    }
    for (const t of this.tagsByDense.get(node) ?? []) if (!out.includes(t)) out.push(t);
    return out;
  }

  nodeProperty(node: number, key: string): Value {
    const col = this.columns.get(key);
    if (!col) throw new NeedData(this.loadColumn(key));
    const v = (col instanceof Map ? col.get(node) : col[node]) ?? null;
    return key === 'system_tags' ? this.systemTags(node, v) : v;
  }

  /** BloodHound's system_tags: analysis writes admin_tier_0; zones add theirs (owned for the Owned label). */
  private systemTags(node: number, stored: Value): Value {
    const tags = this.tagsByDense.get(node);
    if (!tags) return stored;
    const words = new Set(typeof stored === 'string' && stored ? stored.split(' ') : []);
    if (tags.includes('Tag_Tier_Zero')) words.add('admin_tier_0');
    if (tags.includes('Tag_Owned')) words.add('owned');
    return words.size ? [...words].join(' ') : stored;
  }

  nodeProperties(node: number): MapValue {
    const known = this.full.get(node);
    if (known) return { ...known };
    const id = this.index.dbId(node);
    throw new NeedData(
      this.sources.nodes([id]).then((rows) => {
        const props = fromJson(rows[0]?.properties ?? {}) as MapValue;
        const tags = this.systemTags(node, props.system_tags ?? null);
        if (tags !== null) props.system_tags = tags;
        this.full.set(node, props);
      }),
    );
  }

  /** Kind ids of a type list (the plan's own array: a scan asks once per node, ~40 names for AD_ATTACK_PATHS). */
  private readonly kindIds = new WeakMap<readonly string[], number[]>();
  private kindNamesById: string[] = [];

  *expand(
    node: number,
    direction: Direction,
    types: readonly string[] | null,
    skip?: (other: number, rel: number) => boolean,
  ): Iterable<Step> {
    // One generator for both sides and every kind range: a scan expands every node it meets.
    const index = this.index;
    let kinds: number[] | null = null;
    if (types !== null) {
      kinds = this.kindIds.get(types) ?? null;
      if (!kinds) this.kindIds.set(types, (kinds = types.map((t) => index.edgeKindId(t)).filter((k) => k >= 0)));
    }
    if (!this.kindNamesById.length) for (const [id, name] of index.edgeKindNames) this.kindNamesById[id] = name;
    const names = this.kindNamesById;
    // One step object for the whole walk (the Step contract: valid until the next one); a scan meets millions.
    const step: Step = { rel: NO_REL, other: 0 };
    for (let pass = 0; pass < 2; pass++) {
      const out = pass === 0;
      if (out ? direction === 'in' : direction === 'out') continue;
      const side = index.side(out ? 'out' : 'in');
      // A self-loop is one relationship: met once when both directions are asked for.
      const skipLoops = !out && direction === 'both';
      const ranges = kinds === null ? 1 : kinds.length;
      for (let r = 0; r < ranges; r++) {
        const from = kinds === null ? side.offsets[node]! : index.kindStart(side, node, kinds[r]!);
        const to = kinds === null ? side.offsets[node + 1]! : index.kindStart(side, node, kinds[r]! + 1);
        for (let q = from; q < to; q++) {
          const other = side.others[q]!;
          if (skipLoops && other === node) continue;
          const pos = out ? q : side.edges![q]!;
          if (skip !== undefined && skip(other, pos)) continue;
          const type = names[index.outKinds[pos]!] ?? 'Unknown';
          step.rel = out ? new RelV(pos, node, other, type) : new RelV(pos, other, node, type);
          step.other = other;
          yield step;
        }
      }
    }
  }

  degree(node: number, direction: Direction): number {
    const i = this.index;
    const outDeg = i.outOffsets[node + 1]! - i.outOffsets[node]!;
    const inDeg = i.inOffsets[node + 1]! - i.inOffsets[node]!;
    return direction === 'out' ? outDeg : direction === 'in' ? inDeg : outDeg + inDeg;
  }

  domainNumber(node: number): number {
    return this.index.domainSid[node]!;
  }

  carriedRelProperty(rel: number, key: string): Value | undefined {
    if (key !== 'isacl') return undefined;
    // Carried in the index's edge flags (read with the structure): no column of 1.9 M edges to load.
    const f = this.index.outFlags[rel]!;
    if (f & EDGE_FLAG.isaclTrue) return true;
    if (f & EDGE_FLAG.isaclFalse) return false;
    return f & EDGE_FLAG.isaclOther ? undefined : null;
  }

  relProperty(rel: RelV, key: string): Value {
    const carried = this.carriedRelProperty(rel.id, key);
    if (carried !== undefined) return carried;
    const col = this.relColumns.get(key);
    if (col) return relColumnValue(col, rel.id);
    const known = this.relProps.get(rel.id);
    if (known) return known[key] ?? null;
    // A WHERE on a relationship property over a scan reads the key's column once, not a round trip per
    // relationship; the first few reads of a key go by the relationship (a path's handful of edges).
    const misses = (this.relMisses.get(key) ?? 0) + 1;
    this.relMisses.set(key, misses);
    if (misses > REL_READS_BEFORE_COLUMN) throw new NeedData(this.loadRelColumn(key));
    return this.relProperties(rel)[key] ?? null;
  }

  relProperties(rel: RelV): MapValue {
    const known = this.relProps.get(rel.id);
    if (known) return known;
    let p = this.relLoading.get(rel.id);
    if (!p) {
      const triple = { startId: this.index.dbId(rel.start), endId: this.index.dbId(rel.end), kind: rel.type };
      p = this.sources.edges([triple]).then((rows) => {
        this.relProps.set(rel.id, fromJson(rows[0]?.properties ?? {}) as MapValue);
      });
      const done = () => this.relLoading.delete(rel.id);
      p.then(done, done);
      this.relLoading.set(rel.id, p);
    }
    throw new NeedData(p);
  }

  private loadRelColumn(key: string): Promise<void> {
    let p = this.relColumnLoading.get(key);
    if (!p) {
      p = this.sources.relColumn(key).then((rows) => {
        const col = buildRelColumn(this.index, rows);
        if (this.relColumns.size >= MAX_COLUMNS) this.relColumns.delete(this.relColumns.keys().next().value!);
        this.relColumns.set(key, col);
      });
      const done = () => this.relColumnLoading.delete(key);
      p.then(done, done);
      this.relColumnLoading.set(key, p);
    }
    return p;
  }

  /** Object ids (upper-cased, as stored) and names by value, from their columns. */
  nodesByProperty(key: string, value: Value): number[] | undefined {
    if (key !== 'objectid' && key !== 'name') return undefined;
    if (typeof value !== 'string') return [];
    let table = this.lookups.get(key);
    if (!table) {
      const col = this.columns.get(key);
      if (!col) throw new NeedData(this.loadColumn(key));
      table = new Map();
      for (const [d, v] of col instanceof Map ? col : col.entries()) {
        if (typeof v !== 'string') continue;
        const list = table.get(v);
        if (list) list.push(d);
        else table.set(v, [d]);
      }
      this.lookups.set(key, table);
    }
    return table.get(value) ?? [];
  }

  reach(source: number, direction: Direction, types: readonly string[] | null, maxDepth: number): Reach {
    const index = this.index;
    const n = index.nodeCount;
    const dist = new Int32Array(n).fill(-1);
    const order = new Int32Array(n);
    const kinds = types ? index.kindSet(types) : null;
    const sides =
      direction === 'out' ? [index.side('out')] : direction === 'in' ? [index.side('in')] : [index.side('out'), index.side('in')];
    const ok = (pos: number) => kinds === null || kinds[index.outKinds[pos]!] === 1;
    dist[source] = 0;
    order[0] = source;
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const u = order[head++]!;
      const d = dist[u]!;
      if (d >= maxDepth) continue;
      for (const side of sides) {
        const { offsets, others, edges } = side;
        for (let q = offsets[u]!; q < offsets[u + 1]!; q++) {
          const v = others[q]!;
          if (dist[v] !== -1 || !ok(edges ? edges[q]! : q)) continue;
          dist[v] = d + 1;
          order[tail++] = v;
        }
      }
    }
    const reached = order.subarray(0, tail);
    // Paths are walked back from a node through neighbours one hop closer: the sides turned round.
    const back = direction === 'out' ? [index.side('in')] : direction === 'in' ? [index.side('out')] : sides;
    const rel = (pos: number) => new RelV(pos, index.edgeStart(pos), index.outTargets[pos]!, index.edgeKindName(index.outKinds[pos]!));
    return {
      dist,
      order: reached,
      paths: (node, max) => {
        const out: RelV[][] = [];
        const suffix: RelV[] = [];
        const walk = (v: number): void => {
          if (out.length >= max) return;
          if (v === source) {
            out.push([...suffix].reverse());
            return;
          }
          for (const side of back) {
            const { offsets, others, edges } = side;
            for (let q = offsets[v]!; q < offsets[v + 1]!; q++) {
              const pos = edges ? edges[q]! : q;
              const u = others[q]!;
              if (dist[u] !== dist[v]! - 1 || !ok(pos)) continue;
              suffix.push(rel(pos));
              walk(u);
              suffix.pop();
              if (out.length >= max) return;
            }
          }
        };
        if (dist[node]! > 0) walk(node);
        return out;
      },
    };
  }

  shortestPaths(
    source: number,
    target: number,
    direction: Direction,
    types: readonly string[] | null,
    maxDepth: number,
    maxPaths: number,
  ): RelV[][] | undefined {
    if (direction === 'both' || maxDepth > 15) return undefined;
    const [s, t] = direction === 'out' ? [source, target] : [target, source];
    const kinds = types ? this.index.kindSet(types) : null;
    const r = allShortestPaths(this.index, s, t, { kinds, maxDepth, maxPaths });
    return r.paths.map((positions) => {
      const rels = [...positions].map((pos) => {
        const start = this.index.edgeStart(pos);
        return new RelV(pos, start, this.index.outTargets[pos]!, this.index.edgeKindName(this.index.outKinds[pos]!));
      });
      return direction === 'out' ? rels : rels.reverse();
    });
  }
}
