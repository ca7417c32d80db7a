import { AppError } from '../../errors.js';
import { currentScope } from '../../scope.js';

export interface CostlyWorkOptions {
  /** Costly operations one caller may run at once. @default 2 */
  perCaller?: number;
  /**
   * Costly operations running at once across callers: the database's cores and the rest of its pool stay for
   * everything else. On two cores, four at once answered fewer documents than two and held /health three times as
   * long (docs/security.md). @default 2
   */
  total?: number;
  /** More of one caller's that may wait for a turn (a document's aliased fields each wait); past that 429. @default 64 */
  waitingPerCaller?: number;
  /** Longest a turn is waited for (the request's own deadline ends the wait sooner). @default 30000 */
  maxWaitMs?: number;
}

interface Waiter {
  caller: string;
  grant(): void;
  refuse(err: AppError): void;
}

/**
 * Concurrency of costly operations (pages of a thousand nodes, large GraphQL fields, Cypher queries, …): each caller
 * runs at most `perCaller` at once and all callers together `total`; the rest wait in order of arrival, a few per
 * caller, and past that are refused with 429. One caller's burst then queues behind itself instead of taking the
 * database pool and the event loop from everybody else; cheap requests never wait here. A waiting operation gives
 * up when its request ends (the deadline of `Prefer: wait`, or the client going away).
 *
 * The seam: `enter(caller)` before the work, the returned function after it (or `run(caller, fn)`), with the
 * caller as `callerKey(session, clientIp)` names it, so every kind of costly work by one user shares one budget.
 */
export class CostlyWork {
  private readonly perCaller: number;
  private readonly total: number;
  private readonly waitingPerCaller: number;
  private readonly maxWaitMs: number;
  private readonly running = new Map<string, number>();
  private runningTotal = 0;
  private readonly waiting: Waiter[] = [];

  constructor(opts: CostlyWorkOptions = {}) {
    this.perCaller = opts.perCaller ?? 2;
    this.total = opts.total ?? 2;
    this.waitingPerCaller = opts.waitingPerCaller ?? 64;
    this.maxWaitMs = opts.maxWaitMs ?? 30_000;
  }

  /** A turn for `caller`: the release function at once when one is free, else once one frees (or a 429). */
  enter(caller: string): (() => void) | Promise<() => void> {
    if (this.free(caller) && !this.waiting.some((w) => this.free(w.caller))) return this.start(caller);
    if (this.waiting.filter((w) => w.caller === caller).length >= this.waitingPerCaller) throw this.refusal();
    return new Promise<() => void>((resolve, reject) => {
      const signal = currentScope()?.signal;
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
      };
      const waiter: Waiter = {
        caller,
        grant: () => {
          leave();
          resolve(this.start(caller));
        },
        refuse: (err) => {
          leave();
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
      this.waiting.push(waiter);
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
    return { running: this.running.get(caller) ?? 0, waiting: this.waiting.filter((w) => w.caller === caller).length };
  }

  private free(caller: string): boolean {
    return this.runningTotal < this.total && (this.running.get(caller) ?? 0) < this.perCaller;
  }

  private start(caller: string): () => void {
    this.running.set(caller, (this.running.get(caller) ?? 0) + 1);
    this.runningTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.running.get(caller)! - 1;
      if (left > 0) this.running.set(caller, left);
      else this.running.delete(caller);
      this.runningTotal--;
      // The longest waiting operation whose caller has a turn free goes next.
      this.waiting.find((w) => this.free(w.caller))?.grant();
    };
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
