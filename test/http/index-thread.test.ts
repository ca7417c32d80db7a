import { Writable } from 'node:stream';
import pg from 'pg';
import request from 'supertest';
import { createLogger } from '../../src/logger';
import { useTestApp } from '../helpers/app';

/** Every log line, parsed: the test reads the holder's account of a build that failed. */
const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
    done();
  },
});

/** Polls `ready` every few ms for at most 30 s. */
async function until(ready: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 30_000; Date.now() < end;) {
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('timed out');
}

/**
 * The server builds the path index on a worker thread of its own: answers over HTTP follow writes made after it
 * started, and a worker that dies mid-build costs that build only (the previous index keeps answering).
 */
describe('the path index built on its worker thread', () => {
  const t = useTestApp({}, { log: createLogger('info', sink), indexThread: true });
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const paths = (end: string) => request(t.app).get(`/api/v2/graphs/shortest-path?start_node=S-1-5-21-8-1&end_node=${end}`).set(admin());
  const node = (n: number, kind: string) => ({ objectid: `S-1-5-21-8-${n}`, kinds: ['Base', kind], properties: { name: `N${n}@THREAD` } });
  const edge = (from: number, to: number, kind: string) => ({ start: `S-1-5-21-8-${from}`, end: `S-1-5-21-8-${to}`, kind, properties: {} });

  it('answers paths over data written after the server started', async () => {
    expect(t.infra.indexThread).toBeDefined();
    expect((await paths('S-1-5-21-8-2')).status).toBe(404); // the first build, of an empty graph
    await t.infra.graphStore.write(async (w) => {
      await w.upsertNodes([node(1, 'User'), node(2, 'Group')]);
      await w.upsertEdges([edge(1, 2, 'MemberOf')]);
    });
    let last: request.Response | undefined;
    // indexCheckMs is 0 in tests: a request that sees a new generation starts a rebuild (on the worker) and is
    // answered from the index in hand; a later one finds the path.
    await until(async () => (last = await paths('S-1-5-21-8-2')).status === 200);
    expect(last!.headers['path-count']).toBe('1');
    expect(Number(last!.headers['x-graph-generation'])).toBe(await t.infra.graphStore.generation());
  });

  it('keeps the previous index when the worker dies during a build, and the next rebuild builds', async () => {
    const holder = t.infra.graphIndex;
    const before = await holder.current();
    await t.infra.graphStore.write(async (w) => {
      await w.upsertNodes([node(3, 'Computer')]);
      await w.upsertEdges([edge(2, 3, 'AdminTo')]);
    });
    // The worker's node scan waits on a lock held here, so it is surely mid-build when it is killed (a build of
    // this small graph is otherwise over within milliseconds).
    const blocker = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await blocker.connect();
    try {
      await blocker.query(`set search_path to ${pg.escapeIdentifier(t.testDb.schema)}`);
      await blocker.query('begin');
      await blocker.query('lock table graph_nodes in access exclusive mode');
      const rebuilt = holder.invalidate();
      await until(async () => t.infra.indexThread!.busy()); // past the holder's look at the generation
      await t.infra.indexThread!.kill();
      await rebuilt; // settles though the build failed
    } finally {
      await blocker.end(); // its transaction, and the lock, end with it
    }
    expect(lines.filter((l) => l.msg === 'graph index rebuild failed; queries keep the previous index')).toHaveLength(1);
    expect(await holder.current()).toBe(before);
    expect((await paths('S-1-5-21-8-2')).status).toBe(200);

    // The generation still differs from the index's: a request starts the next rebuild on a new worker.
    let last: request.Response | undefined;
    await until(async () => (last = await paths('S-1-5-21-8-3')).status === 200);
    expect(last!.headers['path-count']).toBe('1');
    expect((await holder.current()).generation).toBeGreaterThan(before.generation);
  });
});
