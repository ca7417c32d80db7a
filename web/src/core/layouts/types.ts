import type Graph from 'graphology';

/** A layout in progress: `done` settles when the positions are final; `cancel` stops it where it is. */
export interface LayoutRun {
  done: Promise<void>;
  cancel(): void;
}

export type LayoutId = 'force' | 'hierarchical';

/** One layout of the collection (src/core/layouts/collection/): adding a layout is adding a file. */
export interface LayoutDefinition {
  id: LayoutId;
  /** The name shown to people (BloodHound calls them Standard and Sequential). */
  label: string;
  run(graph: Graph): LayoutRun;
}

/** A worker of the app's own (same origin, as the CSP requires). */
export const spawnLayoutWorker = () => new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
