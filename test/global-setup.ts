/**
 * Without TEST_DATABASE_URL the suite runs on embedded PGlite, started once here (outside Jest's module sandbox,
 * which PGlite's loader needs) and served over the wire protocol; every test file then talks `pg` to it, just
 * like the service does. With TEST_DATABASE_URL the suite uses that PostgreSQL server instead.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) {
    process.env.GAS_TEST_EMBEDDED = '0';
    return;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 256 });
  await server.start();
  const port = (server as unknown as { server: { address(): { port: number } } }).server.address().port;
  process.env.TEST_DATABASE_URL = `postgres://postgres@127.0.0.1:${port}/postgres`;
  process.env.GAS_TEST_EMBEDDED = '1';
  (globalThis as Record<string, unknown>).__GAS_PGLITE__ = { db, server };
}
