import type { EdgeInput, NodeInput, Properties } from '../graph/model.js';

/** What one collected object becomes; `deletes` lists object ids to remove (files of type `deleted`). */
export interface Converted {
  nodes: NodeInput[];
  edges: EdgeInput[];
  deletes: string[];
  /** Set when the record's kind is not one this service converts: the caller counts and reports it. */
  unknownKind?: string;
}

/** Collects the writes of one object, stamping every edge with the ingest time. */
export class Out implements Converted {
  nodes: NodeInput[] = [];
  edges: EdgeInput[] = [];
  deletes: string[] = [];
  unknownKind?: string;

  constructor(readonly now: string) {}

  /** Takes `properties` over (every caller passes a fresh object): stamped in place, not copied, per edge. */
  edge(start: string, end: string, kind: string, properties: Properties, startKind?: string, endKind?: string): void {
    if (!start || !end) return;
    properties.lastseen = this.now;
    this.edges.push({ start, end, kind, properties, startKind, endKind });
  }

  node(objectid: string, kinds: string[], properties: Properties): void {
    this.nodes.push({ objectid, kinds, properties: { ...properties, objectid, lastseen: this.now } });
  }
}
