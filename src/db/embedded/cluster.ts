import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from '../../logger.js';
import { locateBinaries } from './binaries.js';
import { stopOrphan } from './orphan.js';
import { chooseRunAs, type RunAs } from './run-as.js';

/** A PostgreSQL cluster this process started, reachable only on a unix socket in a 0700 directory. */
export interface Cluster {
  /** A `pg` connection string for the cluster's `postgres` database. */
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** The cluster's directory (created by initdb when it holds none). */
  dir: string;
  log: Logger;
  /** Throw-away clusters (the test suite): no fsync, more connections. */
  scratch?: boolean;
}

/** Why the embedded PostgreSQL could not start, in one line naming the cause and what to do. */
export class ClusterError extends Error {
  readonly code = 'EEMBEDDED';
}

// Linux limits a unix socket path to 107 bytes; PostgreSQL puts `.s.PGSQL.5432` in the socket directory.
const MAX_SOCKET_PATH = 100;
const SOCKET_NAME = '.s.PGSQL.5432';
/** How long a start may take: crash recovery after a killed service replays the WAL first. */
const READY_MS = 60_000;
const STOP_MS = 30_000;

/**
 * As another user (we are root) PostgreSQL reaches its directory through its working directory, which it is
 * given before it drops root: DATA_DIR may sit under directories only root may enter (/root, a 0700 parent).
 */
function dataArg(dir: string, runAs: RunAs): string {
  return runAs.switched ? '/proc/self/cwd' : dir;
}

function run(file: string, args: string[], cwd: string, runAs: RunAs): { ok: boolean; output: string } {
  const r = spawnSync(file, args, {
    cwd,
    encoding: 'utf8',
    ...(runAs.switched ? { uid: runAs.uid, gid: runAs.gid } : {}),
    env: { ...process.env, LC_ALL: 'C' },
  });
  return { ok: !r.error && r.status === 0, output: `${r.error?.message ?? ''}${r.stderr ?? ''}${r.stdout ?? ''}` };
}

function lastLine(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.filter((l) => /FATAL|PANIC|ERROR|error|could not/i.test(l)).pop() ?? lines.pop() ?? 'no output').slice(0, 300);
}

/** A new cluster in `dir`, made in a sibling directory and renamed into place: a failed initdb leaves nothing. */
function initCluster(dir: string, runAs: RunAs, initdb: string, log: Logger, scratch: boolean): void {
  const staging = `${dir}.init`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { mode: 0o700 });
  if (runAs.switched) fs.chownSync(staging, runAs.uid, runAs.gid);
  const base = ['-D', dataArg(staging, runAs), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-instructions'];
  if (scratch) base.push('--no-sync');
  const started = Date.now();
  // C.UTF-8 where the system has it (word characters beyond ASCII for pg_trgm), else plain C.
  let r = run(initdb, [...base, '--locale=C.UTF-8'], staging, runAs);
  if (!r.ok) {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { mode: 0o700 });
    if (runAs.switched) fs.chownSync(staging, runAs.uid, runAs.gid);
    r = run(initdb, [...base, '--locale=C'], staging, runAs);
  }
  if (!r.ok) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new ClusterError(`the embedded PostgreSQL could not create its cluster in ${dir}: ${lastLine(r.output)}`);
  }
  fs.renameSync(staging, dir);
  log.info({ dir, ms: Date.now() - started }, 'embedded PostgreSQL cluster created');
}

/** The socket's directory: the cluster's own (0700, PostgreSQL's user only), or a private temporary one when too deep. */
function socketDir(dir: string, runAs: RunAs): { dir: string; setting: string; temporary: boolean } {
  if (path.join(dir, SOCKET_NAME).length <= MAX_SOCKET_PATH) return { dir, setting: dataArg(dir, runAs), temporary: false };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-pg-'));
  if (runAs.switched) fs.chownSync(tmp, runAs.uid, runAs.gid);
  return { dir: tmp, setting: tmp, temporary: true };
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + READY_MS;
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  for (;;) {
    if (exited !== null) throw new ClusterError(`the embedded PostgreSQL stopped while starting: ${lastLine(output())}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch {
      if (Date.now() > until)
        throw new ClusterError(`the embedded PostgreSQL did not accept connections within ${READY_MS / 1000} s: ${lastLine(output())}`);
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function exitOf(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts PostgreSQL on `opts.dir`, creating the cluster when there is none, listening on no TCP port. A postgres
 * left running on the directory by a killed service is stopped first. On any failure nothing is left running.
 */
export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const { dir, log } = opts;
  const runAs = chooseRunAs();
  const bins = locateBinaries(runAs);
  const parent = path.dirname(dir);
  try {
    fs.mkdirSync(parent, { recursive: true });
    fs.accessSync(parent, fs.constants.W_OK);
  } catch (err) {
    throw new ClusterError(
      `DATA_DIR ${parent} is not writable (${(err as NodeJS.ErrnoException).code}): choose a directory this user may write, or set DATABASE_URL`,
    );
  }
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) initCluster(dir, runAs, bins.initdb, log, !!opts.scratch);
  await stopOrphan(dir, log);
  const socket = socketDir(dir, runAs);
  const args = [
    '-D',
    dataArg(dir, runAs),
    '-c',
    'listen_addresses=',
    '-c',
    `unix_socket_directories=${socket.setting}`,
    '-c',
    'unix_socket_permissions=0700',
    '-c',
    `max_connections=${opts.scratch ? 300 : 100}`,
    ...(opts.scratch ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
  ];
  let output = '';
  let stopping = false;
  // Detached: a Ctrl-C in the terminal reaches the service, which closes its connections before stopping the cluster.
  const child = spawn(bins.postgres, args, {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(runAs.switched ? { uid: runAs.uid, gid: runAs.gid } : {}),
    env: { ...process.env, LC_ALL: 'C' },
  });
  const onOutput = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-8_000);
    for (const line of chunk.toString('utf8').split('\n')) {
      // Our own readiness probes while it starts or stops are refused with a FATAL that means nothing.
      if (/the database system is (starting up|shutting down|in recovery mode)/.test(line)) continue;
      // A connection still open when we stop the cluster is ended by it: expected then, news at any other time.
      if (stopping && /terminating connection due to administrator command/.test(line)) continue;
      if (/\b(FATAL|PANIC)\b/.test(line)) log.error({ module: 'postgres' }, line.trim());
      else if (/\b(WARNING|ERROR)\b/.test(line)) log.debug({ module: 'postgres' }, line.trim());
    }
  };
  child.stdout!.on('data', onOutput);
  child.stderr!.on('data', onOutput);
  child.on('error', (err) => (output += `\n${err.message}`));
  // A service that exits without closing (an uncaught error) still asks its cluster to stop.
  const onExit = () => {
    if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGINT');
  };
  process.on('exit', onExit);
  const url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socket.dir)}`;
  const stop = async () => {
    stopping = true;
    process.off('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT'); // fast shutdown: running statements end, the cluster checkpoints and exits
      if (!(await exitOf(child, STOP_MS))) {
        child.kill('SIGQUIT');
        await exitOf(child, 5_000);
      }
    }
    if (socket.temporary) fs.rmSync(socket.dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  child.unref();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stderr as unknown as { unref?: () => void }).unref?.();
  return { url, pid: child.pid!, stop };
}
