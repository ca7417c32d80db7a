import { loadConfig, type Config } from '../config.js';
import { migrate } from '../db/migrate.js';
import { commandLogDestination, createLogger, type Logger } from '../logger.js';
import { openCommandStorage } from '../main/command-storage.js';
import { composeServices } from '../main/compose.js';
import type { Services } from '../services/index.js';

/** What a one-off command runs with: the configuration, and a logger that reports only problems (LOG_LEVEL). */
export function commandContext(): { config: Config; log: Logger } {
  const config = loadConfig();
  // One-off commands log only problems, on stderr; their output is the result on stdout.
  return { config, log: createLogger(process.env.LOG_LEVEL ?? 'warn', commandLogDestination()) };
}

/**
 * Runs `fn` with the services composed over the configured storage (migrated first), then closes it. One-off
 * commands start no background work; the server key is checked only when a command needs a secret.
 */
export async function withServices<T>(fn: (s: Services) => Promise<T>, ctx = commandContext()): Promise<T> {
  const { config, log } = ctx;
  const storage = await openCommandStorage(config, log);
  try {
    await migrate(storage.db, log);
    const { services } = await composeServices({
      db: storage.db,
      config,
      log,
      clock: () => new Date(),
      storage: storage.kind,
      secrets: 'lazy',
      // One command, one thread: nothing to keep answering meanwhile, and its stdout stays the command's result.
      pipelineThread: false,
    });
    return await fn(services);
  } finally {
    await storage.close();
  }
}

/** Writes one JSON object as a line on stdout. */
export const printJson = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');
