import { AppError } from '../../errors.js';
import { currentScope } from '../../scope.js';

export interface CostlyWorkOptions {
  /** Costly operations one caller may run at once. @default 2 */
  perCaller?: number;
  /** More of them that may wait for a turn; past that the caller gets 429. @default 8 */
  waitingPerCaller?: number;
  /** Longest a turn is waited for (the request's own deadline ends the wait sooner). @default 30000 */
  maxWaitMs?: number;
}

interface Waiter {
  grant(): void;
  refuse(err: AppError): void;
}

interface CallerState {
  running: number;
  waiting: Waiter[];
}

/**
 * Per-caller concurrency of costly operations (large GraphQL documents, Cypher queries, …): each caller runs at most
 * `perCaller` at once, a few more wait in order, and the rest are refused with 429. One caller's burst then queues
 * behind itself instead of taking the database pool and the event loop from everybody else. A waiting operation
 * gives up when its request ends (the deadline of `Prefer: wait`, or the client going away).
 *
 * The seam: `enter(caller)` before the work, the returned function after it (or `run(caller, fn)`); the caller key
 * is `callerKey(session)` so every kind of costly work by one user shares one budget.
 */
export class CostlyWork {
  private readonly perCaller: number;
  private readonly waitingPerCaller: number;
  private readonly maxWaitMs: number;
  private readonly callers = new Map<string, CallerState>();

  constructor(opts: CostlyWorkOptions = {}) {
    this.perCaller = opts.perCaller ?? 2;
    this.waitingPerCaller = opts.waitingPerCaller ?? 8;
    this.maxWaitMs = opts.maxWaitMs ?? 30_000;
  }

  /** A turn for `caller`: the release function at once when one is free, else once one frees (or a 429). */
  enter(caller: string): (() => void) | Promise<() => void> {
    const state = this.callers.get(caller) ?? { running: 0, waiting: [] };
    this.callers.set(caller, state);
    const release = this.releaser(caller, state);
    if (state.running < this.perCaller) {
      state.running++;
      return release;
    }
    if (state.waiting.length >= this.waitingPerCaller) throw this.refusal();
    return new Promise<() => void>((resolve, reject) => {
      const signal = currentScope()?.signal;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = state.waiting.indexOf(waiter);
        if (at >= 0) state.waiting.splice(at, 1);
      };
      const waiter: Waiter = {
        grant: () => {
          done();
          state.running++;
          resolve(release);
        },
        refuse: (err) => {
          done();
          this.forget(caller, state);
          reject(err);
        },
      };
      const onAbort = () => waiter.refuse(this.refusal('the request ended while it waited'));
      const timer = setTimeout(
        () => waiter.refuse(this.refusal(`no turn came within ${Math.round(this.maxWaitMs / 1000)} s`)),
        this.maxWaitMs,
      );
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      state.waiting.push(waiter);
    });
  }

  /** Runs `fn` in a turn of `caller`'s. */
  async run<T>(caller: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.enter(caller);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Operations running and waiting for a caller (tests, diagnostics). */
  load(caller: string): { running: number; waiting: number } {
    const s = this.callers.get(caller);
    return { running: s?.running ?? 0, waiting: s?.waiting.length ?? 0 };
  }

  private releaser(caller: string, state: CallerState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.running--;
      const next = state.waiting[0];
      if (next) next.grant();
      else this.forget(caller, state);
    };
  }

  private forget(caller: string, state: CallerState): void {
    if (state.running === 0 && state.waiting.length === 0 && this.callers.get(caller) === state) this.callers.delete(caller);
  }

  private refusal(why?: string): AppError {
    return new AppError(
      'RATE_LIMITED',
      'costly-work',
      `At most ${this.perCaller} costly operations per caller run at once (and ${this.waitingPerCaller} may wait)${why ? `; ${why}` : ''}; retry when one has finished.`,
      { headers: { 'Retry-After': '2' } },
    );
  }
}

/** The key costly work is counted under: the user or collector client, else the client address. */
export function callerKey(
  session: { kind: 'user'; userId: string } | { kind: 'client'; clientId: string } | null,
  clientIp: string,
): string {
  if (!session) return `address:${clientIp}`;
  return session.kind === 'user' ? `user:${session.userId}` : `client:${session.clientId}`;
}
