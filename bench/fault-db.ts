import pg from 'pg';
import { FaultProxy } from '../test/helpers/fault-proxy';
import { benchDatabase } from './harness';
import { benchLogin, startServerChild } from './server-child';

interface Sample {
  at: number;
  ms: number;
  status: number;
  retryAfter: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The database goes away under traffic. `gas serve` runs in its own process with its DATABASE_URL
 * pointing at a TCP proxy in front of PostgreSQL (BENCH_DATABASE_URL, or the embedded cluster's socket). Eight clients read
 * (GET /api/v2/self) and write (POST /api/v2/tokens) without pause while the proxy is cut (every connection dropped,
 * new ones refused: a server restart) and while pg_terminate_backend kills its backends.
 * Figures: requests, statuses, 5xx other than 503 (must be 0), 503 without Retry-After (0), time to the first 200
 * after the database returns, acknowledged writes missing afterwards (0), and whether the process is still up.
 */
export async function faultDbBench(): Promise<Record<string, unknown>> {
  const store = await benchDatabase();
  const proxy = await FaultProxy.start(store.url);
  const server = await startServerChild({ DATABASE_URL: proxy.urlFor(store.url), RATE_LIMIT_RPS: '100000' });
  const samples: Sample[] = [];
  const acked: string[] = [];
  let stop = false;
  try {
    const jwt = await benchLogin(server.url);
    const headers = { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' };
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const write = (i + n) % 3 === 0;
        const at = Date.now();
        let status = 0;
        let retryAfter = false;
        try {
          const res = await fetch(`${server.url}${write ? '/api/v2/tokens' : '/api/v2/self'}`, {
            method: write ? 'POST' : 'GET',
            headers,
            body: write ? JSON.stringify({ token_name: `fault-${n}-${i}` }) : undefined,
            signal: AbortSignal.timeout(15_000),
          });
          status = res.status;
          retryAfter = res.headers.has('retry-after');
          const body = (await res.json().catch(() => ({}))) as { data?: { id?: string } };
          if (write && status === 200 && body.data?.id) acked.push(body.data.id);
        } catch {
          status = -1; // no answer at all (connection refused or reset, or no answer in 15 s)
        }
        samples.push({ at, ms: Date.now() - at, status, retryAfter });
        if (status !== 200) await sleep(50);
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));

    const phases: Record<string, unknown>[] = [];
    const recoveryAfter = (t: number) => {
      const ok = samples.find((s) => s.at >= t && s.status === 200);
      return ok ? ok.at + ok.ms - t : null;
    };
    await sleep(3000);
    for (const downMs of [1000, 5000]) {
      const cutAt = Date.now();
      proxy.cut();
      await sleep(downMs);
      const back = Date.now();
      proxy.restore();
      await sleep(4000);
      const during = samples.filter((s) => s.at >= cutAt && s.at < back);
      phases.push({
        fault: `proxy cut ${downMs / 1000} s (restart)`,
        requestsDuring: during.length,
        answered503: during.filter((s) => s.status === 503).length,
        recoveryMs: recoveryAfter(back),
      });
    }
    {
      const admin = new pg.Client({ connectionString: store.url, application_name: 'gas-bench-admin' });
      await admin.connect();
      for (let k = 0; k < 3; k++) {
        const at = Date.now();
        const r = await admin.query(
          `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
             and application_name <> 'gas-bench-admin'`,
        );
        await sleep(2000);
        phases.push({ fault: 'pg_terminate_backend of every server connection', terminated: r.rows[0].n, recoveryMs: recoveryAfter(at) });
      }
      await admin.end();
    }
    await sleep(2000);
    stop = true;
    await Promise.all(clients);

    const check = new pg.Client({ connectionString: store.url });
    await check.connect();
    const found = (await check.query<{ n: number }>('select count(*)::int as n from auth_tokens where id = any($1::uuid[])', [acked]))
      .rows[0]!.n;
    await check.end();

    const byStatus: Record<string, number> = {};
    for (const s of samples) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    return {
      storage: store.kind,
      requests: samples.length,
      byStatus,
      unexpected5xx: samples.filter((s) => s.status >= 500 && s.status !== 503).length,
      noAnswer: samples.filter((s) => s.status === -1).length,
      status503WithoutRetryAfter: samples.filter((s) => s.status === 503 && !s.retryAfter).length,
      maxLatencyMs: Math.max(...samples.map((s) => s.ms)),
      phases,
      acknowledgedWrites: acked.length,
      lostWrites: acked.length - found,
      serverStillUp: !server.exited(),
      serverErrorLogs: server.errors.length,
      serverErrorSample: [...new Set(server.errors)].slice(0, 3),
      serverRssMiB: server.rssMiB(),
    };
  } finally {
    stop = true;
    await server.stop();
    await proxy.close();
    await store.close().catch(() => undefined);
  }
}
