import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PgGraphStore } from '../../src/graph/pg/store';
import { createTestDb, type TestDb } from './db';

/**
 * A fresh database with its graph store and a private directory for the files a test file writes and ingests
 * (made before its tests, removed after them).
 */
export function useIngestFiles(prefix: string) {
  let t: TestDb;
  let store: PgGraphStore;
  let dir: string;
  beforeAll(async () => {
    t = await createTestDb();
    store = new PgGraphStore(t.db);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await t.drop();
  });
  return {
    db: () => t.db,
    store: () => store,
    dir: () => dir,
    /** Writes a file (a string as it is, anything else as JSON) into the directory; returns its path. */
    write(name: string, body: unknown): string {
      const f = path.join(dir, name);
      fs.writeFileSync(f, typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
      return f;
    },
    nodeCount: async () => (await t.db.query<{ n: number }>('select count(*)::int as n from graph_nodes'))[0]!.n,
  };
}
