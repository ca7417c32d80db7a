import autocannon from 'autocannon';
import type { Queryable } from '../src/db/pool';
import { benchDatabase } from './harness';
import { benchLogin, startServerChild, type ServerChild } from './server-child';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Samples the server's RSS every 100 ms while `fn` runs; returns fn's result and the peak. */
async function peakRss<T>(server: ServerChild, fn: () => Promise<T>): Promise<{ result: T; peakMiB: number }> {
  let peakMiB = server.rssMiB();
  const timer = setInterval(() => (peakMiB = Math.max(peakMiB, server.rssMiB())), 100);
  try {
    return { result: await fn(), peakMiB };
  } finally {
    clearInterval(timer);
  }
}

async function flood(url: string, headers: Record<string, string>, seconds: number) {
  const r = await autocannon({ url, headers, duration: seconds, connections: 200, workers: 1, timeout: 30 });
  return {
    requests: r.requests.total,
    rps: Math.round(r.requests.average),
    status2xx: r['2xx'],
    status4xx: r['4xx'],
    status5xx: r['5xx'],
    errors: r.errors,
    timeouts: r.timeouts,
    p99ms: r.latency.p99,
  };
}

/**
 * A node stored with one huge property (BIG_PROPERTY_MIB, 250 by default, written directly in
 * SQL as a row from before the write bound would be) read by 8 callers at once through GET /api/v2/users/{id}.
 */
async function bigPropertyReads(db: Queryable, url: string, jwt: string) {
  const mib = Number(process.env.BIG_PROPERTY_MIB ?? 250);
  await db.query(`insert into graph_kinds (name) values ('User'), ('Base') on conflict (name) do nothing`);
  await db.query(
    `insert into graph_nodes (objectid, kind_ids, properties)
     select 'S-1-5-21-1-1-1-4242', array[(select id from graph_kinds where name = 'User')],
       jsonb_build_object('objectid', 'S-1-5-21-1-1-1-4242', 'name', 'HUGE@BENCH.LOCAL', 'description', repeat('A', $1::int * 1024 * 1024))
     on conflict (objectid) do nothing`,
    [mib],
  );
  const started = Date.now();
  const bodies = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const res = await fetch(`${url}/api/v2/users/S-1-5-21-1-1-1-4242`, { headers: { authorization: `Bearer ${jwt}` } });
      return { status: res.status, text: await res.text() };
    }),
  );
  return {
    propertyMiB: mib,
    callers: 8,
    statuses: bodies.map((b) => b.status),
    maxResponseBytes: Math.max(...bodies.map((b) => b.text.length)),
    servedAsMarker: bodies.every((b) => /omitted: over the \d+-byte property limit/.test(b.text)),
    ms: Date.now() - started,
  };
}

/**
 * A 200-connection flood answered mostly with 429 (the default 55 req/s per client and route).
 * `gas serve` runs in its own process at its default log level (info) with its stdout not read once it is up (a
 * stalled log shipper; FLOOD_READ_LOGS=1 reads it); the figure is the server's peak RSS during the flood, next to
 * its RSS at rest.
 */
export async function floodBench(): Promise<Record<string, unknown>> {
  const seconds = Number(process.env.FLOOD_SECONDS ?? 15);
  const store = await benchDatabase();
  const stallLogs = process.env.FLOOD_READ_LOGS !== '1';
  const server = await startServerChild(
    { DATABASE_URL: store.url, ...(process.env.FLOOD_LOG_LEVEL ? { LOG_LEVEL: process.env.FLOOD_LOG_LEVEL } : {}) },
    { stallLogs },
  );
  try {
    const jwt = await benchLogin(server.url);
    await sleep(1000);
    const restMiB = server.rssMiB();
    const authed = process.env.FLOOD_ANON_ONLY
      ? { result: {}, peakMiB: 0 }
      : await peakRss(server, () => flood(`${server.url}/api/v2/self`, { authorization: `Bearer ${jwt}` }, seconds));
    const anonymous = await peakRss(server, () => flood(`${server.url}/api/v2/self`, {}, seconds));
    const bigProperty = await peakRss(server, () => bigPropertyReads(store.db, server.url, jwt));
    await sleep(2000);
    return {
      storage: store.kind,
      connections: 200,
      floodSeconds: seconds,
      logsStalled: stallLogs,
      restMiB,
      authenticated: { ...authed.result, peakRssMiB: authed.peakMiB },
      anonymous: { ...anonymous.result, peakRssMiB: anonymous.peakMiB },
      bigProperty: { ...bigProperty.result, peakRssMiB: bigProperty.peakMiB },
      afterMiB: server.rssMiB(),
      serverStillUp: !server.exited(),
      logLines: server.levels,
    };
  } finally {
    await server.stop();
    await store.close();
  }
}
