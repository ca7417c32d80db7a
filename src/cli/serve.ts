import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { guardProcess } from '../main/process-guards.js';
import { startServer } from '../main/server.js';
import { tuneV8ForServing } from '../main/v8-serving.js';

/** `gas serve`: the service until SIGINT or SIGTERM. Never resolves; the signal handler exits. */
export async function serve(): Promise<never> {
  tuneV8ForServing();
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  guardProcess(log);
  const server = await startServer(config, log);
  const stop = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return new Promise<never>(() => undefined);
}
