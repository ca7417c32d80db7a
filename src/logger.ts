import pino, { type Logger } from 'pino';

export type { Logger };

/** One structured logger per process; modules take child loggers with a `module` binding. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'gas' }, timestamp: pino.stdTimeFunctions.isoTime });
}
