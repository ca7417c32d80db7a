import onHeaders from 'on-headers';
import type { NextFunction, Request, Response } from 'express';
import { badRequest, requestTimeout, timeout } from '../errors.js';
import { closeAfterAnswer } from './body-receive.js';
import { MSG } from '../messages.js';
import { runInScope, type RequestScope } from '../scope.js';
import { hasBody, writeError } from './errors.js';

export interface PreferOptions {
  /** Deadline when the request states none. @default 30 */
  defaultWaitSeconds?: number;
  /** Whether `wait=-1` may lift the deadline (ALLOW_TIMEOUT_BYPASS). @default false */
  allowBypass?: boolean;
  /** Longest deadline a request may ask for (PREFER_MAX_WAIT_SECONDS); larger waits get this. @default 600 */
  maxWaitSeconds?: number;
}

const PATTERN = /^wait=(-1|[0-9]+)$/;
// setTimeout cannot wait longer than 2^31-1 ms (24.8 days); longer waits are simply that long.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `Prefer: wait=N` (RFC 7240) sets the request's deadline: every database statement and the response itself are
 * bound to it, and past it the client gets 504 and the work is abandoned (statements cancelled). `wait=0`
 * states no preference (the default applies); `wait=-1` lifts the deadline only when the server allows it.
 */
export function prefer(opts: PreferOptions = {}) {
  const defaultWait = opts.defaultWaitSeconds ?? 30;
  return (req: Request, res: Response, next: NextFunction): void => {
    const raw = req.headers.prefer;
    const header = (Array.isArray(raw) ? raw.join(',') : raw)?.trim();
    let waitSeconds = defaultWait;
    if (header) {
      const m = PATTERN.exec(header);
      if (!m) {
        return writeError(
          res,
          badRequest(
            'middleware',
            `Prefer header has an invalid value: expected wait=N (seconds) or wait=-1, got "${header.slice(0, 64)}".`,
          ),
          req.requestId,
        );
      }
      const n = Number(m[1]);
      if (n === -1 && !opts.allowBypass) {
        return writeError(
          res,
          badRequest('middleware', 'Prefer header has an invalid value: wait=-1 (no deadline) is not enabled on this server.'),
          req.requestId,
        );
      }
      if (n !== 0) {
        // A huge wait would be a bypass of the wait=-1 gate: it is honoured up to the cap (RFC 7240 lets the server
        // apply less than asked, and Preference-Applied says what was applied).
        waitSeconds = n === -1 ? -1 : Math.min(n, opts.maxWaitSeconds ?? 600);
        res.setHeader('Preference-Applied', `wait=${waitSeconds}`);
      }
    }

    const deadline = waitSeconds === -1 ? undefined : Date.now() + waitSeconds * 1000;
    const scope = new DeadlineScope(req.requestId, deadline);
    let timer: NodeJS.Timeout | undefined;
    if (deadline !== undefined) {
      timer = setTimeout(
        () => {
          scope.abort();
          // A body still arriving is the client's slowness, not the work's: 408, and the connection closes.
          if (!req.complete && hasBody(req)) {
            closeAfterAnswer(req, res);
            writeError(res, requestTimeout('middleware', 'The request body did not arrive before the request deadline.'), req.requestId);
          } else writeError(res, timeout('middleware', MSG.timedOut), req.requestId);
        },
        Math.min(waitSeconds * 1000, MAX_TIMER_MS),
      );
    }
    res.once('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) scope.abort();
    });
    // Answers from the path index name the graph generation they were computed on, and say when a newer one is
    // being built (a write by anyone is followed within INDEX_CHECK_MS plus one rebuild).
    onHeaders(res, () => {
      const graph = scope.graph;
      if (!graph) return;
      res.setHeader('X-Graph-Generation', String(graph.generation));
      if (graph.rebuilding) res.setHeader('X-Graph-Index', 'rebuilding');
    });
    runInScope(scope, next);
  };
}

/**
 * A request's scope. Its abort signal is made when something first asks for it (most requests answered from memory
 * never do); one that ends aborted before being asked for is born aborted.
 *
 * A class, not an object literal with a getter: V8 keeps a literal's getter in the object's map, so each request's
 * object got a map of its own. Maps live in the old generation, and through the getter's closure every request's
 * objects survived each young collection until a full one (~3 MB a scavenge; docs/decisions.md, "Serving speed").
 */
class DeadlineScope implements RequestScope {
  private controller: AbortController | undefined;
  private aborted = false;
  graph: RequestScope['graph'] = undefined;

  constructor(
    readonly requestId: string,
    readonly deadline: number | undefined,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  abort(): void {
    this.aborted = true;
    this.controller?.abort();
  }
}
