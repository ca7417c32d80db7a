import type { Server } from 'node:http';
import type { Config } from '../config.js';
import { migrate } from '../db/migrate.js';
import { answerClientErrors } from '../http/client-error.js';
import { createHttpServer } from '../http/http-server.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import { compose } from './compose-app.js';
import { openStorage } from './storage.js';

/** Why the server could not listen, with the address and what to do, instead of node's unhandled 'error' event. */
export class ListenError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const LISTEN_ADVICE: Record<string, string> = {
  EADDRINUSE: 'is already in use; stop what listens there or set PORT to another port',
  EACCES: 'may not be opened by this user; choose a PORT above 1023',
  EADDRNOTAVAIL: 'is not an address of this machine; set HOST to one of its addresses (or 0.0.0.0)',
};

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      server.off('listening', listening);
      const code = err.code ?? 'ELISTEN';
      const advice = LISTEN_ADVICE[code] ?? `could not be opened (${err.message})`;
      reject(new ListenError(code, `cannot listen on ${host}:${port}: the address ${advice} [${code}]`));
    };
    const listening = () => {
      server.off('error', failed);
      resolve();
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(port, host);
  });
}

export interface RunningServer {
  url: string;
  services: Services;
  close(): Promise<void>;
}

/** `gas serve`: storage, migrations, first administrator, then HTTP. */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const storage = await openStorage(config, log);
  await migrate(storage.db, log);
  const { services, infra, app, start, stop } = await compose({
    db: storage.db,
    config,
    log,
    clock: () => new Date(),
    storage: storage.kind,
  });
  // The first administrator exists before anyone can ask /health; its generated password is printed only by a
  // start that serves, and a start that cannot listen removes it again, so the next start prints another.
  const admin = await services.identity.ensureAdmin(config.adminPassword);
  const server: Server = createHttpServer(app);
  try {
    await listen(server, config.port, config.host);
  } catch (err) {
    // Nothing half-started is left behind: the background work stops and the storage closes before the error is told.
    await admin.undo?.();
    await stop();
    await storage.close();
    throw err;
  }
  if (admin.created && admin.password) {
    // Printed once; it is not stored anywhere in clear.
    process.stderr.write(
      `\nCreated user "admin" (Administrator) with password: ${admin.password}\nChange it (gas user passwd admin, or PUT /api/v2/bloodhound-users/{id}/secret), or set GAS_ADMIN_PASSWORD before the first start.\n\n`,
    );
    log.warn({ user: 'admin' }, 'initial administrator created with a generated password (printed on stderr)');
  } else if (admin.created) {
    log.info({ user: 'admin' }, 'initial administrator created from GAS_ADMIN_PASSWORD');
  }
  start();
  answerClientErrors(server);
  // After listening, node reports a failed accept (EMFILE under a connection flood) as the server's 'error' event;
  // unheard, that would end the process. The server keeps listening and accepts again once descriptors free up.
  server.on('error', (err: NodeJS.ErrnoException) => log.error({ err, code: err.code }, 'http server could not accept a connection'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  log.info({ url, edition: config.edition, storage: storage.kind }, 'graph analysis service listening');
  // The path index is built now rather than by the first request that needs it: after a restart under load, every
  // request arriving during the build (seconds on a forest) waited for it together.
  void infra.graphIndex.warm();
  return {
    url,
    services,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // A build still under way (the start's, or one after an ingest) is ended, not waited for: its reads hold a
      // connection the storage would otherwise close under it. Requests that waited for it were answered above.
      await infra.graphIndex.stop();
      await stop();
      await storage.close();
    },
  };
}
