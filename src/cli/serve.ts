import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { guardProcess } from '../main/process-guards.js';
import { startServer } from '../main/server.js';
import { tuneV8ForServing } from '../main/v8-serving.js';

/** `gas serve`: the service until SIGINT, SIGTERM or SIGHUP. Never resolves; the signal handler exits. */
export async function serve(): Promise<never> {
  tuneV8ForServing();
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  guardProcess(log);
  // Heard from the very start: a signal while the service starts (its database already running) stops it once
  // started, instead of ending the process with the database left behind.
  let stopping = false;
  const starting = startServer(config, log);
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const server = await starting.catch(() => undefined);
    await server?.close();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
  await starting;
  return new Promise<never>(() => undefined);
}
