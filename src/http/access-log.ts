import type { RequestHandler } from 'express';
import { httpLogSerializers, type Logger } from '../logger.js';

/**
 * One log line per request, when its response is finished (or the connection closed first): the request line,
 * the caller, allowlisted headers, the status and the time taken. Written here rather than with pino-http: that
 * made a child logger for every request, which nothing used, and it was ~8 % of a signed lookup's CPU.
 * A flood is answered with 429s: one info line each is what made memory climb under one (issue 9.5), so they are
 * debug. A 503 (the database away, logged once by the pool) is expected while it lasts: warn, not error.
 */
export function accessLog(logger: Logger): RequestHandler {
  // The line is built from allowlisted fields only (secret query values already hidden), so the logger's redaction
  // paths, walked on every line, have nothing to find in it: ~40 % of a line's cost.
  const log = logger.child({}, { redact: { paths: [] } });
  return (req, res, next) => {
    const started = performance.now();
    // 'close' follows 'finish' on every response, and is the only event when the connection went first.
    res.once('close', () => {
      const status = res.statusCode;
      const level = status === 429 ? 'debug' : status === 503 ? 'warn' : status >= 500 ? 'error' : 'info';
      if (!log.isLevelEnabled(level)) return;
      log[level](
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
