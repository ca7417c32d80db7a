import fs from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const handle = (globalThis as Record<string, unknown>).__GAS_TEST_CLUSTER__ as
    { cluster: { stop(): Promise<void> }; root: string } | undefined;
  if (!handle) return;
  await handle.cluster.stop();
  fs.rmSync(handle.root, { recursive: true, force: true });
}
