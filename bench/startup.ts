import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ratio } from './harness';
import { median, smoke } from './stats';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const BUILD = path.join(ROOT, 'scripts', 'build.mjs');
/** Targets: a second `npm start` healthy in ≤ 5 s, a first one after `npm ci` in ≤ 60 s, small commands in ≤ 2 s. */
const TARGETS = { secondStartMs: 5000, firstStartMs: 60_000, smallCommandMs: 2000 };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Wall-clock ms of one command run to its end; fails the benchmark when it exits non-zero. */
function timed(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 16 << 20 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return ms;
}

function medianOf(runs: number, f: () => number): number {
  return median(Array.from({ length: runs }, f));
}

interface Serving {
  healthyMs: number;
  stop(): Promise<void>;
}

/** `npm start` as a user runs it (the incremental build, then `gas serve`), timed to the first 200 from /health. */
async function npmStart(env: NodeJS.ProcessEnv, port: number): Promise<Serving> {
  const started = performance.now();
  const child = spawn('sh', ['-c', `"${process.execPath}" "${BUILD}" && exec "${process.execPath}" "${CLI}" serve`], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${stderr}`);
    if (performance.now() - started > 120_000) throw new Error(`not healthy after 120 s: ${stderr}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const healthyMs = performance.now() - started;
  return {
    healthyMs,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Start-up as a user meets it, on the embedded default (a fresh DATA_DIR, no DATABASE_URL): `gas --help` against a
 * bare `node -e 0` in the same run; the first `npm start` (cluster created, migrations, admin) after a forced full
 * build as `npm ci` leaves the tree (skipped in a smoke run); a second `npm start` on the same DATA_DIR; a small
 * command (`gas user list`) with the server running and with none.
 */
export async function startupBench(): Promise<Record<string, unknown>> {
  const runs = smoke ? 1 : 5;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-startup-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    GAS_ADMIN_PASSWORD: 'startup-bench-password-1',
  };
  try {
    const bareNodeMs = medianOf(runs, () => timed(['-e', '0'], env));
    // A smoke run only makes sure dist/ is there (CI's checkout may not have built it yet).
    const fullBuildMs = smoke ? void timed([BUILD], env) : timed([BUILD, '--force'], env);
    const helpMs = medianOf(runs, () => timed([CLI, '--help'], env));
    const port = await freePort();
    const first = await npmStart(env, port);
    await first.stop();
    const seconds: number[] = [];
    let listRunningMs = 0;
    for (let i = 0; i < runs; i++) {
      const s = await npmStart(env, port);
      seconds.push(s.healthyMs);
      if (i === 0) listRunningMs = medianOf(runs, () => timed([CLI, 'user', 'list'], env));
      await s.stop();
    }
    const listAloneMs = medianOf(runs, () => timed([CLI, 'user', 'list'], env));
    const secondStartMs = median(seconds);
    const firstStartMs = (fullBuildMs ?? 0) + first.healthyMs;
    const round = (ms: number): number => Math.round(ms);
    return {
      load: os.loadavg().map((l) => l.toFixed(1)),
      bareNodeMs: round(bareNodeMs),
      helpMs: round(helpMs),
      helpToBareNode: ratio(helpMs, bareNodeMs),
      fullBuildMs: fullBuildMs === undefined ? 'skipped (smoke)' : round(fullBuildMs),
      firstServeHealthyMs: round(first.healthyMs),
      firstStartMs: fullBuildMs === undefined ? 'skipped (smoke)' : round(firstStartMs),
      secondStartMs: round(secondStartMs),
      secondStartToFirstServe: ratio(secondStartMs, first.healthyMs),
      userListWhileServingMs: round(listRunningMs),
      userListAloneMs: round(listAloneMs),
      targets: TARGETS,
      met: {
        secondStart: secondStartMs <= TARGETS.secondStartMs,
        firstStart: fullBuildMs === undefined ? 'not measured' : firstStartMs <= TARGETS.firstStartMs,
        help: helpMs <= TARGETS.smallCommandMs,
        userList: Math.max(listRunningMs, listAloneMs) <= TARGETS.smallCommandMs,
      },
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
