import { GraphIndex } from '../graph/index/graph-index.js';
import type { GraphStore } from '../graph/store.js';
import type { Logger } from '../logger.js';

/**
 * Keeps the in-memory graph index current. Every write to the graph bumps a generation number in the store; the
 * holder compares it at most every `checkIntervalMs` (so other replicas' writes are noticed) and rebuilds when it
 * moved. One rebuild at a time; callers during a rebuild wait for it.
 */
export class GraphIndexHolder {
  private index?: GraphIndex;
  private building?: Promise<GraphIndex>;
  private checkedAt = 0;

  constructor(
    private readonly store: GraphStore,
    private readonly opts: { checkIntervalMs: number; log: Logger },
  ) {}

  async current(): Promise<GraphIndex> {
    if (this.building) return this.building;
    if (this.index && Date.now() - this.checkedAt < this.opts.checkIntervalMs) return this.index;
    const generation = await this.store.generation();
    this.checkedAt = Date.now();
    if (this.index && this.index.generation === generation) return this.index;
    return this.rebuild();
  }

  /** Forces the next `current()` to compare generations (after a local write). */
  invalidate(): void {
    this.checkedAt = 0;
  }

  private rebuild(): Promise<GraphIndex> {
    if (this.building) return this.building;
    const started = Date.now();
    this.building = GraphIndex.build(this.store)
      .then((index) => {
        this.index = index;
        this.opts.log.info(
          { nodes: index.nodeCount, edges: index.edgeCount, generation: index.generation, ms: Date.now() - started },
          'graph index built',
        );
        return index;
      })
      .finally(() => {
        this.building = undefined;
      });
    return this.building;
  }
}
