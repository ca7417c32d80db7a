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

const create = () => new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
let spare: Worker | undefined;

/**
 * A layout worker of the app's own (same origin, as the CSP requires). One is kept started ahead, so a layout does
 * not wait for a worker's script to load and compile; each run takes it and the next one starts.
 */
export function spawnLayoutWorker(): Worker {
  const worker = spare ?? create();
  spare = create();
  return worker;
}

/** Starts the spare worker before the first layout is asked for (the canvas does, when it mounts). */
export function prewarmLayoutWorker(): void {
  spare ??= create();
}
