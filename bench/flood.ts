import autocannon from 'autocannon';
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
 * Issue 9.5, part one: a 200-connection flood answered mostly with 429 (the default 55 req/s per client and route).
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
    await sleep(2000);
    return {
      storage: store.kind,
      connections: 200,
      floodSeconds: seconds,
      logsStalled: stallLogs,
      restMiB,
      authenticated: { ...authed.result, peakRssMiB: authed.peakMiB },
      anonymous: { ...anonymous.result, peakRssMiB: anonymous.peakMiB },
      afterMiB: server.rssMiB(),
      serverStillUp: !server.exited(),
      logLines: server.levels,
    };
  } finally {
    await server.stop();
    await store.close();
  }
}
