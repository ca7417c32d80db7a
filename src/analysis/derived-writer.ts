import type { GraphWriter } from '../graph/store.js';
import { nextTurn } from '../next-turn.js';
import { turnDue, type AnalysisGraph, type Changes } from './view.js';

/** Derived edges that make a write worth starting while the rules still run (one COPY batch of the store). */
export const WRITE_BEHIND_EDGES = 20_000;

/**
 * Writes what the rules record while they still run: the database inserts the edges of the rules done so far
 * while this thread computes the next ones (at tier M the write of ~600k derived edges took ~4.5 s of the
 * database, the rules ~1.5 s of this thread, one after the other). One write at a time, in the order recorded:
 * node changes first (the endpoints analysis created must exist before its edges), then the edges since the last
 * write. Everything goes through the one write transaction, so a failed run still leaves nothing behind.
 */
export class DerivedWriter {
  private nodesDone = 0;
  private edgesDone = 0;
  private writing?: Promise<void>;
  private failure?: { err: unknown };
  /** Set when the run failed elsewhere: no write starts after it, and one in flight stops at its next batch. */
  private stopped = false;
  /** Ids of the nodes analysis created (negative ids in the view), once written. */
  private readonly created = new Map<string, number>();

  /**
   * `first` runs before any write: the delete of every edge of the `replaced` kinds (it too overlaps the rules).
   * Edges of those kinds cannot exist any more and go straight in; the few of other kinds analysis adds (the
   * well-known groups' memberships, say) may exist from an earlier run and are merged.
   */
  constructor(
    private readonly w: GraphWriter,
    private readonly g: AnalysisGraph,
    private readonly c: Changes,
    private readonly replaced: ReadonlySet<string>,
    private readonly first: Promise<unknown>,
  ) {
    first.catch(() => undefined); // awaited by the first write or by end()
  }

  /** Starts a write of what piled up, unless one runs (it goes on with the rest) or too little did. */
  behind(): void {
    if (this.failure) throw this.failure.err;
    if (this.writing || this.c.edges.length - this.edgesDone < WRITE_BEHIND_EDGES) return;
    this.writing = this.drain(false).then(
      () => (this.writing = undefined),
      (err: unknown) => {
        this.failure = { err };
        this.writing = undefined;
      },
    );
  }

  /** Writes everything recorded, after any write still running; rejects with the first failure of any write. */
  async end(): Promise<void> {
    await this.writing;
    if (this.failure) throw this.failure.err;
    await this.drain(true);
  }

  /**
   * The run failed elsewhere (a rule threw): stops writing and waits for the write in flight, so nothing reaches
   * the transaction's connection once it is rolled back and handed on. Never rejects.
   */
  async abandon(): Promise<void> {
    this.stopped = true;
    await this.first.catch(() => undefined);
    await this.writing;
  }

  /** The graph id of a node of the view, once everything is written (end()): analysis-created nodes included. */
  graphId(viewId: number): number | undefined {
    return viewId >= 0 ? viewId : this.created.get(this.g.node(viewId).objectid);
  }

  /** Looks up the ids of created nodes that no written edge needed (an explanation may name them). */
  async resolveCreated(viewIds: Iterable<number>): Promise<void> {
    const unknown = [...new Set([...viewIds].filter((id) => id < 0).map((id) => this.g.node(id).objectid))].filter(
      (o) => !this.created.has(o),
    );
    if (unknown.length) for (const [o, id] of await this.w.nodeIds(unknown)) this.created.set(o, id);
  }

  private async drain(all: boolean): Promise<void> {
    await this.first;
    while (
      !this.stopped &&
      (all
        ? this.edgesDone < this.c.edges.length || this.nodesDone < this.c.nodes.length
        : this.c.edges.length - this.edgesDone >= WRITE_BEHIND_EDGES)
    ) {
      const nodes = this.c.nodes.slice(this.nodesDone);
      const edges = this.c.edges.slice(this.edgesDone);
      this.nodesDone += nodes.length;
      this.edgesDone += edges.length;
      if (nodes.length) await this.w.upsertNodes(nodes);
      // Nodes analysis created have negative ids in the view: their ids in the graph are looked up once written.
      const fresh = new Set<string>();
      const due = turnDue();
      for (const e of edges) {
        if (due()) await nextTurn();
        if (e.startId < 0) fresh.add(this.g.node(e.startId).objectid);
        if (e.endId < 0) fresh.add(this.g.node(e.endId).objectid);
      }
      if (this.stopped) return;
      const unknown = [...fresh].filter((o) => !this.created.has(o));
      if (unknown.length) for (const [o, id] of await this.w.nodeIds(unknown)) this.created.set(o, id);
      const id = (n: number) => (n >= 0 ? n : this.created.get(this.g.node(n).objectid)!);
      // The view's own edge objects are handed over (a copy of each, held across the write's turns, was promoted
      // to the old generation and raised the peak at tier L), with lastseen added as they are encoded.
      const byId = function* (this: DerivedWriter, absent: boolean) {
        for (const e of edges) {
          if (this.stopped) return;
          if (this.replaced.has(e.kind) !== absent) continue;
          yield e.startId >= 0 && e.endId >= 0 ? e : { ...e, startId: id(e.startId), endId: id(e.endId) };
        }
      };
      const properties = { lastseen: this.c.now };
      await this.w.insertEdgesByNodeId(byId.call(this, true), { absent: true, properties });
      await this.w.insertEdgesByNodeId(byId.call(this, false), { properties });
    }
  }
}
