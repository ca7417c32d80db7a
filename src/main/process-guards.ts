import type { Logger } from '../logger.js';

/**
 * For `gas serve`, the process-wide last resorts. A rejected promise nobody handled (a background task's
 * forgotten catch) is logged with its error and the server goes on: node's default would end a process that is
 * answering everyone else's requests. An uncaught exception leaves state no one can vouch for, so it still ends the
 * process, but first as one structured fatal line a log shipper can alert on, and exit code 1 for the supervisor.
 */
export function guardProcess(log: Logger): void {
  process.on('unhandledRejection', (reason) => {
    const err = reason instanceof Error ? reason : new Error(String(reason));
    log.error({ err }, 'a promise was rejected and nothing handled it; the server goes on');
  });
  process.on('uncaughtException', (thrown: unknown, origin) => {
    // Anything can be thrown, not only an Error.
    const err = thrown instanceof Error ? thrown : new Error(String(thrown));
    log.fatal({ err, origin }, 'uncaught exception; the server stops');
    process.stderr.write(`gas: uncaught exception, stopping: ${err.stack ?? err.message}\n`);
    process.exit(1);
  });
}
