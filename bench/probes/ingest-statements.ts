import pg from 'pg';
import { migratedSchema } from '../harness';
import { Database } from '../../src/db/pool';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { createLogger } from '../../src/logger';
import { backendCpuMs } from '../stats';

/**
 * Diagnosis, not a benchmark: where an ingest's statements spend their time. Ingests the files over one connection
 * into a fresh schema `ingest_statements` of the database at <url> and prints
 *  - every statement's count and time as the client sees it (sent → answer handled), by its `-- label`, with the
 *    backend's CPU meanwhile (what is not CPU is the server waiting: for our data, for us to read, for the disk);
 *  - the time nothing was on the connection (the server waiting for this process), by the statement answered last;
 *  - the backend's CPU, and what the server wrote meanwhile (pg_stat_bgwriter, pg_stat_wal deltas: server-wide);
 *  - with PROBE_AUTO_EXPLAIN_MS=n, the server's own plans and times of statements over n ms, in its log
 *    (`auto_explain` with `log_analyze`; needs a superuser and the contrib module).
 *
 *   node --import tsx bench/probes/ingest-statements.ts postgres://postgres@127.0.0.1:5432/wt_ingest <files…>
 * (files: `node --import tsx src/cli.ts generate --tier M --out <dir>`, then <dir>/*.json in the order to ingest)
 */
type Timed = { n: number; ms: number; cpu?: number };
/** The backend whose CPU each statement is charged with (set once connected); /proc ticks are 10 ms. */
let backendPid: number | undefined;
let cpuAtSend: number | undefined;
const times = new Map<string, Timed>();
/** Time with no statement on the connection, by the statement answered just before: the server waits for us. */
const gaps = new Map<string, Timed>();
let inFlight = 0;
let lastAnswered: { at: number; key: string } | undefined;

const label = (sql: string) => /--\s*(\S+)/.exec(sql)?.[1] ?? sql.slice(0, 40).replace(/\s+/g, ' ');

function add(map: Map<string, Timed>, key: string, ms: number, cpu?: number): void {
  const t = map.get(key) ?? { n: 0, ms: 0 };
  t.n++;
  t.ms += ms;
  if (cpu !== undefined) t.cpu = (t.cpu ?? 0) + cpu;
  map.set(key, t);
}

function sent(at: number): void {
  if (inFlight++ === 0) {
    if (lastAnswered) add(gaps, `after ${lastAnswered.key}`, at - lastAnswered.at);
    cpuAtSend = backendPid === undefined ? undefined : backendCpuMs(backendPid);
  }
}

/** Statements queued behind another (a COPY behind its savepoint) are charged together, to the last one answered. */
function note(sql: string, started: number): void {
  const now = performance.now();
  const last = --inFlight === 0;
  const cpuNow = last && backendPid !== undefined && cpuAtSend !== undefined ? backendCpuMs(backendPid) : undefined;
  add(times, label(sql), now - started, cpuNow === undefined ? undefined : cpuNow - cpuAtSend!);
  if (last) lastAnswered = { at: now, key: label(sql) };
}

// The pool's two private senders, wrapped: every statement and COPY of the ingest passes through one of them.
type Sender = (this: unknown, conn: unknown, sql: string, arg: unknown) => Promise<unknown>;
const pool = Database.prototype as unknown as { run: Sender; copy: Sender };
for (const name of ['run', 'copy'] as const) {
  const original = pool[name];
  pool[name] = async function (this: unknown, conn, sql, arg) {
    const started = performance.now();
    sent(started);
    try {
      return await original.call(this, conn, sql, arg);
    } finally {
      note(sql, started);
    }
  };
}

async function serverWrites(url: string): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<Record<string, string>>(
      `select b.buffers_checkpoint, b.buffers_clean, b.buffers_backend, b.buffers_alloc, w.wal_records, w.wal_fpi,
              w.wal_bytes, w.wal_buffers_full
       from pg_stat_bgwriter b, pg_stat_wal w`,
    );
    return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  const [base, ...files] = process.argv.slice(2);
  if (!base || !files.length) throw new Error('usage: ingest-statements <url> <files…>');
  const url = await migratedSchema(base, 'ingest_statements');
  const log = createLogger('silent');

  const db = new Database(url, { log, max: 1 });
  const store = new PgGraphStore(db);
  const pid = (await db.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]!.pid;
  backendPid = pid;
  const explainMs = process.env.PROBE_AUTO_EXPLAIN_MS;
  if (explainMs) {
    await db.query(`load 'auto_explain'`);
    await db.query(`select set_config('auto_explain.log_min_duration', $1, false)`, [`${Number(explainMs)}ms`]);
    await db.query(`set auto_explain.log_analyze = on`);
  }
  const writesBefore = await serverWrites(base);
  const cpuBefore = backendCpuMs(pid);
  const clientBefore = process.cpuUsage();
  times.clear();
  lastAnswered = undefined;
  const started = Date.now();
  for (const f of files) {
    const r = await ingestPath(store, f);
    if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('; '));
  }
  const ms = Date.now() - started;
  const cpuAfter = backendCpuMs(pid);
  const client = process.cpuUsage(clientBefore);
  const writesAfter = await serverWrites(base);
  await db.close();
  const statements = Object.fromEntries(
    [...times]
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(([k, v]) => [k, { n: v.n, ms: Math.round(v.ms), backend_cpu_ms: v.cpu === undefined ? undefined : Math.round(v.cpu) }]),
  );
  const out = {
    ms,
    backend_cpu_ms: cpuBefore !== undefined && cpuAfter !== undefined ? Math.round(cpuAfter - cpuBefore) : undefined,
    client_cpu_ms: Math.round((client.user + client.system) / 1000),
    server_writes: Object.fromEntries(Object.keys(writesAfter).map((k) => [k, writesAfter[k]! - writesBefore[k]!])),
    statements,
    // Between statements (nothing sent yet): what the connection waited for this process, by what it did last.
    idle_between_statements_ms: Math.round([...gaps.values()].reduce((a, g) => a + g.ms, 0)),
    idle_after: Object.fromEntries([...gaps].sort((a, b) => b[1].ms - a[1].ms).map(([k, v]) => [k, { n: v.n, ms: Math.round(v.ms) }])),
  };
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
