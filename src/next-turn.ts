/**
 * Resolves on a later turn of the event loop. Long work on the thread that answers requests (index builds, analysis,
 * preparing ingest batches) awaits it between slices, so requests and I/O get in between.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
