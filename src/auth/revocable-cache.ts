/**
 * A cache that may serve entries only while an invalidation feed proves nothing changed: `setLive(true)` once the
 * feed is connected and caught up, `setLive(false)` (which also empties it) as soon as it may have missed a change,
 * `invalidate()` on every change notice. A load that started before a notice is not stored after it (the epoch
 * check), so a stale read can never outlive the notice that revoked it.
 */
export class RevocableCache<V> {
  private entries = new Map<string, V>();
  private epoch = 0;
  private live = false;

  constructor(private readonly maxEntries = 10_000) {}

  get isLive(): boolean {
    return this.live;
  }

  setLive(live: boolean): void {
    this.live = live;
    this.invalidate();
  }

  invalidate(): void {
    this.epoch++;
    this.entries.clear();
  }

  /**
   * The entry for `key`, or `load()`'s answer (stored when the cache is live and no notice came meanwhile). A kept
   * entry comes back as a plain value: a hit costs no promise.
   */
  get(key: string, load: () => Promise<V | undefined>): V | Promise<V | undefined> {
    if (this.live) {
      const hit = this.entries.get(key);
      if (hit !== undefined) return hit;
    }
    return this.load(key, load);
  }

  private async load(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const epoch = this.epoch;
    const value = await load();
    if (value !== undefined && this.live && epoch === this.epoch) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}
