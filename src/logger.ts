import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Log lines waiting for stdout are held in memory; past this many bytes new lines are dropped (and counted) rather
 * than buffered without bound. A stalled log reader under a request flood otherwise grew the process by ~1.5 KiB
 * per request (issue 9.5).
 */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

/** One structured logger per process; modules take child loggers with a `module` binding. */
export function createLogger(level: string): Logger {
  const out = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_BYTES });
  let dropped = 0;
  out.on('drop', () => {
    if (dropped++ === 0) process.stderr.write('gas: log output is not being read fast enough; dropping log lines\n');
  });
  return pino({ level, base: { service: 'gas' }, timestamp: pino.stdTimeFunctions.isoTime }, out);
}
