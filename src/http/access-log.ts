import type { RequestHandler } from 'express';
import pino from 'pino';
import { httpLogSerializers, type Logger } from '../logger.js';

type AccessLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * One log line per request, when its response is finished (or the connection closed first): the request line,
 * the caller, allowlisted headers, the status and the time taken. Written here rather than with pino-http: that
 * made a child logger for every request, which nothing used, and it was ~8 % of a signed lookup's CPU.
 * A flood is answered with 429s: one info line each is what made memory climb under one, so they are
 * debug. A 503 (the database away, logged once by the pool) is expected while it lasts: warn, not error.
 */
export function accessLog(logger: Logger): RequestHandler {
  const write = accessLineWriter(logger);
  return (req, res, next) => {
    const started = performance.now();
    // 'close' follows 'finish' on every response, and is the only event when the connection went first.
    res.once('close', () => {
      const status = res.statusCode;
      const level = status === 429 ? 'debug' : status === 503 ? 'warn' : status >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      write(
        level,
        {
          reqId: req.requestId,
          req: httpLogSerializers.req({
            id: req.requestId,
            method: req.method,
            url: req.originalUrl,
            remoteAddress: req.socket.remoteAddress,
            headers: req.headers,
          }),
          res: httpLogSerializers.res(res),
          responseTime: Math.round(performance.now() - started),
        },
        res.writableFinished ? 'request completed' : 'request aborted',
      );
    });
    next();
  };
}

/**
 * Writes one access line to the logger's destination, in exactly the form `logger[level](fields, msg)` would:
 * level, the logger's time and bindings, the fields, the message. The fields are allowlisted values (secret query
 * values already hidden), so the logger's redaction has nothing to find in them, and plain JSON.stringify serialises
 * them. The whole line cost ~0.08 of a signed look-up's ratio to a bare route, mostly pino's per-call path (a safe
 * stringify walking every key, redaction, hooks); written this way it costs ~0.03 (docs/decisions.md, "HTTP and the contract").
 */
export function accessLineWriter(logger: Logger): (level: AccessLevel, fields: Record<string, unknown>, msg: string) => void {
  const { streamSym, timeSym, chindingsSym } = pino.symbols;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[streamSym] as { write(line: string): unknown };
  const time = internals[timeSym] as () => string;
  const bindings = internals[chindingsSym] as string;
  return (level, fields, msg) => {
    const body = JSON.stringify(fields);
    // `{}` stringifies to two characters; anything longer is `{…}` whose inside joins the line.
    const inner = body.length > 2 ? ',' + body.slice(1, -1) : '';
    stream.write(`{"level":${logger.levels.values[level]}${time()}${bindings}${inner},"msg":${JSON.stringify(msg)}}\n`);
  };
}
