export default async function globalTeardown(): Promise<void> {
  const handle = (globalThis as Record<string, unknown>).__GAS_PGLITE__ as
    { db: { close(): Promise<void> }; server: { stop(): Promise<void> } } | undefined;
  if (!handle) return;
  await handle.server.stop();
  await handle.db.close();
}
