import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every piece of work done for one request can see without having it passed down: its id and its deadline.
 * The database layer reads the deadline here, which is how `Prefer: wait` reaches every query.
 */
export interface RequestScope {
  requestId: string;
  /** Epoch milliseconds after which the request's work is abandoned; undefined = no deadline. */
  deadline?: number;
  /** Aborted when the deadline passes or the client goes away. */
  signal: AbortSignal;
  /** Set when an answer came from the path index: its graph generation, and whether a newer one is being built. */
  graph?: { generation: number; rebuilding: boolean };
}

const storage = new AsyncLocalStorage<RequestScope>();

export function runInScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

/** Runs `fn` outside any request scope: background work must not inherit a request's deadline or abort signal. */
export function runOutsideScope<T>(fn: () => T): T {
  return storage.exit(fn);
}
