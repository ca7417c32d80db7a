import { currentScope, runOutsideScope } from '../../scope.js';
import { GraphIndex } from '../../graph/index/graph-index.js';
import type { GraphStore } from '../../graph/store.js';
import type { Logger } from '../../logger.js';
import { whenReady, type MaybePromise } from '../../maybe-promise.js';

/**
 * Keeps the in-memory graph index current. Every write to the graph bumps a generation number in the store; the
 * holder compares it at most every `checkIntervalMs` (so other replicas' writes are noticed) and rebuilds when it
 * moved. A rebuild happens off to the side: queries keep answering from the previous index until the new one is
 * complete, then it is swapped in with one assignment (a rebuild of a forest takes seconds; queries must not
 * wait for it). Only the very first build, when there is no index yet, is waited for. One rebuild at a time; a
 * change noticed during a rebuild starts another one after it.
 */
export class GraphIndexHolder {
  private index?: GraphIndex;
  private building?: Promise<GraphIndex>;
  /** Set when a change was announced while a rebuild was running: that rebuild may have missed it. */
  private again = false;
  private checkedAt = 0;
  /** The store generation last seen, and a counter that moves whenever the graph may have changed (see epoch). */
  private generationSeen?: number;
  private epochValue = 0;
  /** Aborted by stop(): the build under way ends at its next batch and no other starts. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: GraphStore,
    private readonly opts: {
      checkIntervalMs: number;
      log: Logger;
      /**
       * How an index is built: in this thread from `store` by default; the server builds on a worker thread. An
       * aborted signal must end the build (and let go of its connections) before the promise rejects.
       */
      build?: (signal: AbortSignal) => Promise<GraphIndex>;
    },
  ) {}

  /**
   * Moves whenever the graph may have changed: a local write (invalidate) or a new generation seen by current() or
   * a rebuild. What is read from the graph under one epoch may be kept in memory until it moves, which bounds
   * its staleness as the index's is bounded: another writer's change shows within `checkIntervalMs`.
   */
  get epoch(): number {
    return this.epochValue;
  }

  private seen(generation: number): void {
    if (generation === this.generationSeen) return;
    this.generationSeen = generation;
    this.epochValue++;
  }

  /** Whether an index has been built (before that, current() waits for the first build). */
  get ready(): boolean {
    return this.index !== undefined;
  }

  /** Whether a rebuild is running (the previous index answers meanwhile). */
  get rebuilding(): boolean {
    return this.building !== undefined;
  }

  /**
   * The index to answer from; the one in hand as a plain value while no check of the generation is due. The
   * request's scope is told which generation its answer comes from, and whether a newer one is being built.
   */
  current(): MaybePromise<GraphIndex> {
    const index = this.index;
    if (!index) return whenReady(this.building ?? this.rebuild(), (built) => this.answeredFrom(built));
    if (this.building || Date.now() - this.checkedAt < this.opts.checkIntervalMs) return this.answeredFrom(index);
    return this.store.generation().then((generation) => {
      this.checkedAt = Date.now();
      this.seen(generation);
      if (index.generation !== generation) void this.rebuild().catch(() => undefined); // logged in rebuild
      return this.answeredFrom(this.index ?? index);
    });
  }

  private answeredFrom(index: GraphIndex): GraphIndex {
    const scope = currentScope();
    if (scope) {
      const behind = this.building !== undefined || (this.generationSeen !== undefined && this.generationSeen !== index.generation);
      scope.graph = { generation: index.generation, rebuilding: behind };
    }
    return index;
  }

  /**
   * Reads the store's generation now and starts a rebuild when it moved, without waiting for a request to look:
   * the server calls it on every announced change and every `checkIntervalMs`, so a write by anyone (the CLI,
   * another replica) reaches the answers within that interval plus one rebuild. Never rejects.
   */
  async refresh(): Promise<void> {
    const index = this.index;
    if (!index || this.stopping.signal.aborted) return;
    try {
      const generation = await runOutsideScope(() => this.store.generation());
      this.checkedAt = Date.now();
      this.seen(generation);
      if (generation !== index.generation) {
        if (this.building) this.again = true;
        else await this.rebuild();
      }
    } catch (err) {
      if (!this.stopping.signal.aborted) this.opts.log.warn({ err }, 'could not read the graph generation; the next check tries again');
    }
  }

  /**
   * Brings the epoch up to date without building or waiting for an index: with one, as current() does; before the
   * first build, by reading the store's generation at most every `checkIntervalMs`. For memories of graph reads
   * (cachedNodeReads), which must keep to the epoch whether or not anyone has asked for a path yet.
   */
  observe(): MaybePromise<void> {
    // Nothing to look at (checked within the interval, or a rebuild under way that will move the epoch itself):
    // undefined rather than a settled promise, so a look-up answered from memory costs no promise.
    if (this.index && this.building) return undefined;
    if (Date.now() - this.checkedAt < this.opts.checkIntervalMs) return undefined;
    if (this.index) return whenReady(this.current(), () => undefined);
    return this.store.generation().then((generation) => {
      this.checkedAt = Date.now();
      this.seen(generation);
    });
  }

  /**
   * Starts the first build unless one is in hand or under way: a server calls it once it listens, so the first
   * requests after a start find the index built (or nearly) instead of all waiting for it together. Never rejects
   * (a failed build is logged, and the next request tries again).
   */
  warm(): Promise<void> {
    if (this.index) return Promise.resolve();
    return (this.building ?? this.rebuild()).then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * After a local write: starts a rebuild now (queries keep the old index meanwhile). The promise settles when
   * an index at least as new as the write is in place, so a caller that must publish "done" only after paths
   * reflect its write (the datapipe finishing jobs) can wait for it; it never rejects. With no index built or
   * being built it builds none: the first current() builds from the graph as it is then (`gas ingest`, which
   * never reads paths, built a whole index after the ingest and again after its analysis).
   */
  invalidate(): Promise<void> {
    this.checkedAt = 0;
    this.epochValue++;
    if (!this.index && !this.building) return Promise.resolve();
    if (this.building) this.again = true;
    const settled = this.building ? this.building.catch(() => undefined).then(() => this.building ?? this.rebuild()) : this.rebuild();
    return settled.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Ends the build under way (at its next batch) and refuses new ones, for a server that is stopping once its
   * requests have been answered: a start's warm-up build of a forest takes seconds nobody waits for. Settles when
   * the build has let go of its connection; never rejects.
   */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('the graph index holder was stopped'));
    await this.building?.catch(() => undefined);
  }

  /**
   * A new index, or the one in hand when the store's generation has not moved past it: every write moves the
   * generation, but changes are announced more than once (the end of an ingest run and of its analysis both, a
   * notice during a build queues another), and at tier M four of a job's nine builds (seconds of CPU each) rebuilt
   * the generation in hand.
   */
  private async buildUnlessCurrent(): Promise<GraphIndex> {
    const index = this.index;
    if (index && (await this.store.generation()) === index.generation) return index;
    return (this.opts.build ?? ((signal) => GraphIndex.build(this.store, signal)))(this.stopping.signal);
  }

  private rebuild(): Promise<GraphIndex> {
    if (this.building) return this.building;
    if (this.stopping.signal.aborted) return Promise.reject(this.stopping.signal.reason as Error);
    const started = Date.now();
    this.again = false;
    // Outside the scope of the request that happened to start it: every request waiting shares the build, and one
    // whose client left (or whose deadline passed) must not fail the others with its 504.
    this.building = runOutsideScope(() => this.buildUnlessCurrent())
      .then((index) => {
        this.checkedAt = Date.now();
        this.seen(index.generation);
        if (index === this.index) return index;
        this.index = index; // the swap: queries that start from here on see the new index
        this.opts.log.info(
          { nodes: index.nodeCount, edges: index.edgeCount, generation: index.generation, ms: Date.now() - started },
          'graph index built',
        );
        return index;
      })
      .catch((err) => {
        if (this.stopping.signal.aborted) this.opts.log.info({ ms: Date.now() - started }, 'graph index build stopped');
        else this.opts.log.error({ err }, 'graph index rebuild failed; queries keep the previous index');
        throw err;
      })
      .finally(() => {
        this.building = undefined;
        if (this.again && this.index) void this.rebuild().catch(() => undefined);
      });
    return this.building;
  }
}
