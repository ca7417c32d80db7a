import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(__dirname, '..');

export interface ServerChild {
  url: string;
  /** Its DATA_DIR (env's, or a fresh one): removed at stop. */
  dataDir: string;
  child: ChildProcess;
  /** Log lines by level name, and the messages of error-level lines. */
  levels: Record<string, number>;
  errors: string[];
  /** The path index builds the server logged: the graph generation, the build's ms, when the line was read. */
  indexBuilds: { generation: number; ms: number; at: number }[];
  /** Garbage collections so far, when started with `gcTrace` (V8's --trace-gc-nvp lines on stdout). */
  gc: GcTotals;
  /** Resident set size of the server process in MiB (Linux /proc). */
  rssMiB(): number;
  exited(): boolean;
  stop(): Promise<void>;
}

/**
 * CPU time (user + system, milliseconds) a process has used so far, from Linux /proc; 0 where unreadable. Over a
 * run of thousands of requests it gives CPU per request, a figure a latency-bound or shared machine blurs less
 * than throughput.
 */
export function cpuMs(pid: number | undefined): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/**
 * The command that starts a serving process: with BENCH_SERVER_CPUS (a taskset CPU list, e.g. `1`) it runs pinned
 * to those CPUs. Run the bench itself pinned to the others (`taskset -c 0 npm run bench …`) and the load generator
 * and the server stop taking turns on the same core, which on a 2-core VM is most of a run's noise.
 */
export function serverCommand(args: string[]): [string, string[]] {
  const cpus = process.env.BENCH_SERVER_CPUS;
  return cpus ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
}

/** Running totals of the server's garbage collections: young (scavenges) and full (mark-compact) ones. */
export interface GcTotals {
  scavenges: number;
  scavengeMs: number;
  /** Bytes moved from the young generation to the old one: what a request leaves behind for a full collection. */
  promotedBytes: number;
  fullGcs: number;
  fullGcMs: number;
}

/** Adds one --trace-gc-nvp line to the totals; other lines (and a line cut by an interleaved write) are ignored. */
function countGc(line: string, gc: GcTotals): boolean {
  const kind = /\bgc=(s|ms|mc)\b/.exec(line)?.[1];
  const pause = Number(/\bpause=([\d.]+)/.exec(line)?.[1]);
  if (!kind || Number.isNaN(pause)) return false;
  if (kind === 's') {
    gc.scavenges++;
    gc.scavengeMs += pause;
    gc.promotedBytes += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
  } else {
    gc.fullGcs++;
    gc.fullGcMs += pause;
  }
  return true;
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * Starts `gas serve` from the sources in its own process, as it runs in production, and waits until /health
 * answers. Its stdout (the JSON log) is read line by line, as a log shipper would; with `stallLogs` it is not read
 * at all once the server is up (a stalled shipper: the pipe fills and the server must not buffer without bound).
 */
export async function startServerChild(
  env: Record<string, string>,
  opts: { stallLogs?: boolean; nodeArgs?: string[]; gcTrace?: boolean } = {},
): Promise<ServerChild> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gas-bench-'));
  const port = await freePort();
  // BENCH_SERVER_DIST=1: the built service (`npm run build` first), exactly what `npm start` runs.
  const entry =
    process.env.BENCH_SERVER_DIST === '1' ? [path.join(ROOT, 'dist', 'cli.js')] : ['--import', 'tsx', path.join(ROOT, 'src', 'cli.ts')];
  const child = spawn(...serverCommand([...(opts.gcTrace ? ['--trace-gc-nvp'] : []), ...(opts.nodeArgs ?? []), ...entry, 'serve']), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      GAS_ADMIN_PASSWORD: 'bench-admin-password',
      LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const levels: Record<string, number> = {};
  const errors: string[] = [];
  const indexBuilds: ServerChild['indexBuilds'] = [];
  const gc: GcTotals = { scavenges: 0, scavengeMs: 0, promotedBytes: 0, fullGcs: 0, fullGcMs: 0 };
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const lines = readline.createInterface({ input: child.stdout! });
  // Lines are counted by the level pino writes first, and only error lines are parsed whole: parsing every access
  // line here took CPU from the load generator, which shares this core, and so lowered the measured rate of every
  // route that logs (the bare route does not).
  lines.on('line', (line) => {
    const n = Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? NaN);
    if (Number.isNaN(n)) {
      if (opts.gcTrace) countGc(line, gc);
      return;
    }
    const level = LEVELS[n] ?? 'info';
    levels[level] = (levels[level] ?? 0) + 1;
    if (line.includes('"graph index built"')) {
      const entry = JSON.parse(line) as { generation: number; ms: number };
      indexBuilds.push({ generation: Number(entry.generation), ms: entry.ms, at: Date.now() });
    }
    if (n < 50 || errors.length >= 20) return;
    try {
      const entry = JSON.parse(line) as { msg?: string; err?: { message?: string } };
      errors.push(`${entry.msg}: ${JSON.stringify(entry.err?.message ?? '')}`);
    } catch {
      errors.push(line.slice(0, 200));
    }
  });
  for (let started = Date.now(); ;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before listening: ${stderr}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() - started > 60_000) throw new Error(`server did not answer /health within 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  if (opts.stallLogs) {
    lines.close();
    child.stdout!.pause();
  }
  return {
    url,
    dataDir,
    child,
    levels,
    errors,
    indexBuilds,
    gc,
    rssMiB() {
      try {
        const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        return kb ? Math.round(Number(kb) / 1024) : 0;
      } catch {
        return 0;
      }
    },
    exited: () => child.exitCode !== null || child.signalCode !== null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Logs in as the bench administrator and returns a session JWT. A fresh server answers /health before it has made
 * its first administrator (that waits until it listens), so a 401 is asked again for a few seconds.
 */
export async function benchLogin(url: string): Promise<string> {
  let res: Response;
  for (const until = Date.now() + 15_000; ;) {
    res = await fetch(`${url}/api/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login_method: 'secret', username: 'admin', secret: 'bench-admin-password' }),
    });
    if (res.status !== 401 || Date.now() > until) break;
    await res.text();
    await new Promise((r) => setTimeout(r, 100));
  }
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { session_token: string } }).data.session_token;
}

/** Logs in as the bench administrator and creates an API token for signed requests. */
export async function benchToken(url: string, name: string): Promise<{ id: string; key: string }> {
  const jwt = await benchLogin(url);
  const res = await fetch(`${url}/api/v2/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
    body: JSON.stringify({ token_name: name }),
  });
  if (res.status !== 200) throw new Error(`token create failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { id: string; key: string } }).data;
}
