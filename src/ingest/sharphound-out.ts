import type { EdgeInput, NodeInput, Properties } from '../graph/model.js';

/** What one collected object becomes; `deletes` lists object ids to remove (files of type `deleted`). */
export interface Converted {
  nodes: NodeInput[];
  edges: EdgeInput[];
  deletes: string[];
  /** Set when the record's kind is not one this service converts: the caller counts and reports it. */
  unknownKind?: string;
}

/** Distinct edge property sets a pool keeps at most; past it, it starts over (memory stays bounded). */
const MAX_POOLED = 4096;
/**
 * Longest set a pool keeps, in characters of its names and string values: real sets are ~100 (a 40-character
 * inheritance hash at most), and a hostile file's megabyte-long values must not outlive their batch in the pool.
 */
const MAX_POOLED_CHARS = 256;
/** Most properties a pooled set has (real ones have 2–5): each one is a level of the pool's tree. */
const MAX_POOLED_KEYS = 8;

/** Where a set's path through the tree ends: the shared object is kept under this key. */
const SET = Symbol('set');
type Level = Map<unknown, Level | Properties>;

/**
 * Edge property sets repeat: tier M's 250k SharpHound edges carry 5 distinct ones (isacl, isinherited, the ACL's
 * inheritance hash, lastseen). One frozen object per set means a batch holds, and the store encodes, each once;
 * the fresh object an edge came with dies young. Sets holding an object or array are not pooled.
 * A set is found by walking a tree of maps, a property name then its value per level, in the set's own order (as
 * JSON text would write it): keying a map by each set's JSON text was ~8 % of a tier-M ingest's client CPU.
 */
export class EdgePropertyPool {
  private root: Level = new Map();
  private size = 0;

  intern(p: Properties): Properties {
    let chars = 0;
    let keys = 0;
    for (const k in p) {
      const v = p[k];
      if (v !== null && typeof v === 'object') return p;
      chars += k.length + (typeof v === 'string' ? v.length : 0);
      if (++keys > MAX_POOLED_KEYS || chars > MAX_POOLED_CHARS) return p;
    }
    let level = this.walk(p);
    const had = level.get(SET) as Properties | undefined;
    if (had) return had;
    if (this.size >= MAX_POOLED) {
      this.root = new Map();
      this.size = 0;
      level = this.walk(p);
    }
    this.size++;
    level.set(SET, Object.freeze(p));
    return p;
  }

  /** The level where `p`'s path ends, made as far as it was missing. */
  private walk(p: Properties): Level {
    let level = this.root;
    for (const k in p) level = this.step(this.step(level, k), p[k]);
    return level;
  }

  private step(level: Level, key: unknown): Level {
    let next = level.get(key) as Level | undefined;
    if (!next) level.set(key, (next = new Map()));
    return next;
  }
}

/** Collects the writes of one object, stamping every edge with the ingest time. */
export class Out implements Converted {
  nodes: NodeInput[] = [];
  edges: EdgeInput[] = [];
  deletes: string[] = [];
  unknownKind?: string;

  constructor(
    readonly now: string,
    private readonly pool?: EdgePropertyPool,
  ) {}

  /**
   * Takes `properties` over (every caller passes a fresh object): stamped in place, then shared with every other
   * edge of the same set when there is a pool (edge properties are never changed after conversion).
   */
  edge(start: string, end: string, kind: string, properties: Properties, startKind?: string, endKind?: string): void {
    if (!start || !end) return;
    properties.lastseen = this.now;
    this.edges.push({ start, end, kind, properties: this.pool ? this.pool.intern(properties) : properties, startKind, endKind });
  }

  node(objectid: string, kinds: string[], properties: Properties): void {
    // Object.assign, not a spread followed by more keys (see sharphound.ts).
    this.nodes.push({ objectid, kinds, properties: Object.assign({}, properties, { objectid, lastseen: this.now }) });
  }
}
