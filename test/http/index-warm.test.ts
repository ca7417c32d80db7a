import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { PgGraphStore } from '../../src/graph/pg/store';
import { createLogger } from '../../src/logger';
import { startServer } from '../../src/main/server';
import { GraphIndexHolder } from '../../src/services/graph/graph-index-holder';
import { createTestDb, type TestDb } from '../helpers/db';

/**
 * `gas serve` builds the path index once it listens, not when the first request needs it: after a restart under
 * load, every request that arrived during the build waited for it together (seconds on a forest). Through the real
 * server on the suite's database; the index's build is read from the server's own log, with no request sent.
 */
describe('a started server', () => {
  let t: TestDb;
  let dataDir: string;
  beforeAll(async () => {
    t = await createTestDb();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-warm-'));
    await new PgGraphStore(t.db).write(async (w) => {
      await w.upsertNodes([
        { objectid: 'S-1-5-21-9-1', kinds: ['Base', 'User'], properties: { name: 'A@WARM' } },
        { objectid: 'S-1-5-21-9-2', kinds: ['Base', 'Group'], properties: { name: 'G@WARM' } },
      ]);
      await w.upsertEdges([{ start: 'S-1-5-21-9-1', end: 'S-1-5-21-9-2', kind: 'MemberOf', properties: {} }]);
    });
  });
  afterAll(async () => {
    await t.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function logged(): { lines: Record<string, unknown>[]; log: ReturnType<typeof createLogger> } {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    return { lines, log: createLogger('info', sink) };
  }

  const config = () => ({
    ...loadConfig({}),
    databaseUrl: t.url,
    port: 0,
    host: '127.0.0.1',
    dataDir,
    adminPassword: 'admin-password-for-warm',
    secretKey: 'dGVzdC1zZWNyZXQta2V5LWZvci10aGUtdGVzdHMtLS0=',
  });

  it('builds the path index without waiting for a request', async () => {
    const { lines, log } = logged();
    const running = await startServer(config(), log);
    try {
      const deadline = Date.now() + 20_000;
      while (!lines.some((l) => l.msg === 'graph index built') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      const built = lines.find((l) => l.msg === 'graph index built');
      expect(built).toMatchObject({ nodes: 2, edges: 1 });
      expect(lines.some((l) => l.req !== undefined)).toBe(false); // no request reached the server
    } finally {
      await running.close();
    }
  });

  it('stops cleanly while the first build is still running', async () => {
    const { lines, log } = logged();
    const running = await startServer(config(), log);
    // At once: the build it started is ended (or has just finished), never cut off under a closing pool.
    await running.close();
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    const ends = lines.filter((l) => l.msg === 'graph index built' || l.msg === 'graph index build stopped');
    expect(ends).toHaveLength(1);
  });

  it('builds nothing when told of a write before any index was asked for, and builds the fresh graph when one is', async () => {
    const { lines, log } = logged();
    const store = new PgGraphStore(t.db);
    const holder = new GraphIndexHolder(store, { checkIntervalMs: 0, log });
    await store.write((w) => w.upsertNodes([{ objectid: 'S-1-5-21-9-3', kinds: ['Base', 'User'], properties: { name: 'B@WARM' } }]));
    const epoch = holder.epoch;
    await holder.invalidate(); // what `gas ingest` does after writing: nobody will read paths in that process
    expect(holder.epoch).toBeGreaterThan(epoch); // memories of graph reads still move on
    expect(holder.ready).toBe(false);
    expect(lines).toEqual([]);
    const index = await holder.current();
    expect(index.dense((await store.nodeByObjectId('S-1-5-21-9-3'))!.id)).toBeGreaterThanOrEqual(0);
    expect(lines.map((l) => l.msg)).toEqual(['graph index built']);
    await holder.invalidate(); // with an index in hand, told of no write: nothing to build
    expect(lines.map((l) => l.msg)).toEqual(['graph index built']);
    await store.write((w) => w.upsertNodes([{ objectid: 'S-1-5-21-9-4', kinds: ['Base', 'User'], properties: { name: 'C@WARM' } }]));
    await holder.invalidate(); // a write rebuilds it
    expect(lines.map((l) => l.msg)).toEqual(['graph index built', 'graph index built']);
  });

  it('ends a build under way when stopped, and starts no other', async () => {
    const { lines, log } = logged();
    const holder = new GraphIndexHolder(new PgGraphStore(t.db), { checkIntervalMs: 0, log });
    const warming = holder.warm();
    await holder.stop();
    await expect(warming).resolves.toBeUndefined(); // warm() never rejects
    expect(lines.map((l) => l.msg)).toEqual(['graph index build stopped']);
    expect(holder.ready).toBe(false);
    await expect(Promise.resolve(holder.current())).rejects.toThrow('stopped');
    await holder.invalidate(); // settles, builds nothing
    expect(lines).toHaveLength(1);
  });
});
