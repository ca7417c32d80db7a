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
 * Longest set (as JSON) a pool keeps: real sets are ~100 characters (a 40-character inheritance hash at most), and a
 * hostile file's megabyte-long values must not outlive their batch in the pool (4,096 × 256 B = 1 MiB at most).
 */
const MAX_POOLED_CHARS = 256;

/**
 * Edge property sets repeat: tier M's 250k SharpHound edges carry 5 distinct ones (isacl, isinherited, the ACL's
 * inheritance hash, lastseen). One frozen object per set means a batch holds, and the store encodes, each once;
 * the fresh object an edge came with dies young. Sets holding an object or array are not pooled.
 */
export class EdgePropertyPool {
  private readonly sets = new Map<string, Properties>();

  intern(p: Properties): Properties {
    for (const k in p) {
      const v = p[k];
      if (v !== null && typeof v === 'object') return p;
    }
    const key = JSON.stringify(p);
    if (key.length > MAX_POOLED_CHARS) return p;
    const had = this.sets.get(key);
    if (had) return had;
    if (this.sets.size >= MAX_POOLED) this.sets.clear();
    this.sets.set(key, Object.freeze(p));
    return p;
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
    this.nodes.push({ objectid, kinds, properties: { ...properties, objectid, lastseen: this.now } });
  }
}
