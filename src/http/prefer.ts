import type { NextFunction, Request, Response } from 'express';
import { badRequest, timeout } from '../errors.js';
import { MSG } from '../messages.js';
import { runInScope } from '../scope.js';
import { writeError } from './errors.js';

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

    // The abort signal is made when something first asks for it (most requests answered from memory never do);
    // one that ends aborted before being asked for is born aborted.
    let controller: AbortController | undefined;
    let aborted = false;
    const abort = () => {
      aborted = true;
      controller?.abort();
    };
    const deadline = waitSeconds === -1 ? undefined : Date.now() + waitSeconds * 1000;
    let timer: NodeJS.Timeout | undefined;
    if (deadline !== undefined) {
      timer = setTimeout(
        () => {
          abort();
          writeError(res, timeout('middleware', MSG.timedOut), req.requestId);
        },
        Math.min(waitSeconds * 1000, MAX_TIMER_MS),
      );
    }
    res.once('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) abort();
    });
    const scope = {
      requestId: req.requestId,
      deadline,
      get signal(): AbortSignal {
        if (!controller) {
          controller = new AbortController();
          if (aborted) controller.abort();
        }
        return controller.signal;
      },
    };
    runInScope(scope, next);
  };
}
