import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { Logger } from '../logger.js';
import type { InProcessCopy } from './pool.js';
import { withNoticesRead, type SessionWatcher } from './session-notices.js';

/**
 * The embedded database, and COPY on it past the socket (InProcessCopy): run on PGlite directly, with the rows as
 * its `/dev/blob`, in whatever transaction its one session is in, so only for Database (DatabaseOptions.inProcess),
 * which calls them while a transaction of its own holds the session; both refuse to run outside a transaction.
 */
export interface EmbeddedDatabase extends InProcessCopy {
  /** A `pg` connection string for the socket the embedded database listens on. */
  url: string;
  /**
   * Calls `listener.notice` on every notice on `channel` (one of those startEmbedded was asked to listen on) that the
   * database's one session receives: from a statement of any connection to the socket, this process's or another's
   * (the CLI), or of this process's direct calls. A commit's notices are reported before its client reads the answer.
   * `listener.lost` once a statement on the socket ended the session's LISTENs (UNLISTEN, DISCARD ALL): notices may be
   * missed from then on, and nothing is reported any more.
   */
  onNotice(channel: string, listener: { notice(): void; lost(): void }): void;
  stop(): Promise<void>;
}

const FROM_STDIN = /\bfrom\s+stdin\b/gi;
const TO_STDOUT = /\bto\s+stdout\s*$/i;

/** Refuses to run outside a transaction: the direct API must only ever join the caller's own. */
function inTransaction(db: PGlite, what: string): void {
  if (!db.isInTransaction()) throw new Error(`${what} on the embedded database outside a transaction`);
}

async function copyInto(db: PGlite, sql: string, chunks: readonly (string | Buffer)[]): Promise<number> {
  inTransaction(db, 'COPY FROM');
  const results = await db.exec(sql.replace(FROM_STDIN, "from '/dev/blob'"), { blob: new Blob(chunks as BlobPart[]) });
  return results.reduce((n, r) => n + (r.affectedRows ?? 0), 0);
}

async function copyOutOf(db: PGlite, sql: string): Promise<Buffer> {
  inTransaction(db, 'COPY TO');
  const result = await db.query(sql.replace(TO_STDOUT, "to '/dev/blob'"));
  return result.blob ? Buffer.from(await result.blob.arrayBuffer()) : Buffer.alloc(0);
}

/** Where a running server publishes its embedded database, so `gas ingest` etc. can reach it instead of the files. */
export const embeddedInfoFile = (dataDir: string) => path.join(dataDir, 'embedded.json');

// Linux limits a unix socket path to 107 bytes; `pg` looks for `<dir>/.s.PGSQL.<port>`.
const MAX_SOCKET_PATH = 100;
const SOCKET_NAME = '.s.PGSQL.5432';

/**
 * The directory the wire-protocol socket lives in: DATA_DIR/run, mode 0700, so only the service's own user can
 * connect (PGlite has no passwords; a TCP port on 127.0.0.1 let any local process read every secret). A DATA_DIR
 * too deep for a socket path, and the in-memory store, get a private 0700 directory under the system temp dir.
 */
function socketDir(dataDir: string, inMemory: boolean): { dir: string; temporary: boolean } {
  const preferred = inMemory ? undefined : path.join(dataDir, 'run');
  if (preferred && path.join(preferred, SOCKET_NAME).length <= MAX_SOCKET_PATH) {
    fs.mkdirSync(preferred, { recursive: true, mode: 0o700 });
    fs.chmodSync(preferred, 0o700);
    return { dir: preferred, temporary: false };
  }
  return { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'gas-pg-')), temporary: true };
}

interface Listening {
  dir: string;
  temporary: boolean;
  path: string;
  server: PGLiteSocketServer;
}

/** PGlite served on a unix socket in `at.dir`; on failure nothing of it is left listening or in a temporary dir. */
async function listen(db: PGlite, at: { dir: string; temporary: boolean }, watcher: SessionWatcher): Promise<Listening> {
  const socketPath = path.join(at.dir, SOCKET_NAME);
  const server = new PGLiteSocketServer({ db: withNoticesRead(db, watcher), path: socketPath, maxConnections: 64 });
  try {
    // A socket left by a crashed run would make listen fail; PGlite's data directory is ours alone by now.
    fs.rmSync(socketPath, { force: true });
    await server.start();
    fs.chmodSync(socketPath, 0o600);
  } catch (err) {
    await server.stop().catch(() => undefined);
    if (at.temporary) fs.rmSync(at.dir, { recursive: true, force: true });
    throw err;
  }
  return { ...at, path: socketPath, server };
}

/** DATA_DIR's files belong to another running process: two PGlite instances on one directory would corrupt it. */
export class EmbeddedInUse extends Error {
  readonly code = 'EBUSY';
  constructor(dataDir: string, pid: number | undefined) {
    super(
      `DATA_DIR ${dataDir} is in use by another gas process${pid ? ` (pid ${pid})` : ''}: stop it, or set DATA_DIR to ` +
        `another directory (or DATABASE_URL to a PostgreSQL server); if no gas process uses it, remove ${path.join(dataDir, 'embedded.lock')}`,
    );
  }
}

/** Whether a process with this pid exists (the CLI uses it to find a running server too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock file younger than this with no pid in it yet belongs to a process that is just starting. */
const STARTING_MS = 10_000;

/**
 * Takes DATA_DIR for this process: `embedded.lock`, created exclusively (O_EXCL) with our pid in it. A lock whose
 * process is gone is stale and taken over. Returns the release function.
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'embedded.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let text = '';
      let age = Infinity;
      try {
        text = fs.readFileSync(file, 'utf8').trim();
        age = Date.now() - fs.statSync(file).mtimeMs;
      } catch {
        continue; // removed meanwhile: try again
      }
      const pid = Number(text);
      if (Number.isInteger(pid) && pid > 0 ? isAlive(pid) : age < STARTING_MS) throw new EmbeddedInUse(dataDir, pid || undefined);
      fs.rmSync(file, { force: true });
      continue;
    }
    fs.writeSync(fd, String(process.pid));
    fs.closeSync(fd);
    return () => {
      try {
        if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
      } catch {
        // already gone
      }
    };
  }
  throw new EmbeddedInUse(dataDir, undefined);
}

/**
 * Starts PGlite (PostgreSQL compiled to WASM) on `dataDir` and serves it over the PostgreSQL wire protocol on a
 * unix socket in a 0700 directory, so the rest of the service talks to it through `pg` exactly as it talks to a
 * real server and no other local user can. `dataDir` of `memory://` keeps everything in memory (tests).
 */
export async function startEmbedded(
  dataDir: string,
  log: Logger,
  opts: { publish?: boolean; channels?: readonly string[] } = {},
): Promise<EmbeddedDatabase> {
  const inMemory = dataDir === 'memory://';
  const pgdata = inMemory ? undefined : path.join(dataDir, 'pgdata');
  if (pgdata) fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  const release = inMemory ? () => undefined : lockDataDir(dataDir);
  const started = Date.now();
  let db: PGlite;
  try {
    db = await PGlite.create(pgdata ? { dataDir: pgdata } : {});
  } catch (err) {
    release();
    throw err;
  }
  const listeners = new Map<string, Array<{ notice(): void; lost(): void }>>();
  let unlistened = false;
  const watcher: SessionWatcher = {
    notice(channel) {
      if (!unlistened) for (const l of listeners.get(channel) ?? []) l.notice();
    },
    unlistened() {
      if (unlistened) return;
      unlistened = true;
      log.warn({ module: 'embedded' }, 'a statement on the embedded database ended its LISTENs: change notices are no longer read');
      for (const l of [...listeners.values()].flat()) l.lost();
    },
  };
  // A step that fails after PGlite opened closes it and releases DATA_DIR: the caller may start again in-process.
  let socket: Listening;
  try {
    // The session listens before the socket serves anyone, outside any transaction: no client's rollback undoes it.
    // PGlite reports the notices of its direct calls here; those of socket clients are read from their answers.
    for (const channel of opts.channels ?? []) await db.listen(channel, (payload) => watcher.notice(channel, payload));
    socket = await listen(db, socketDir(dataDir, inMemory), watcher);
  } catch (err) {
    await db.close().catch(() => undefined);
    release();
    throw err;
  }
  const url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socket.dir)}`;
  log.info({ dataDir: pgdata ?? 'memory', ms: Date.now() - started }, 'embedded PostgreSQL (PGlite) started');
  const info = inMemory ? undefined : embeddedInfoFile(dataDir);
  if (info && opts.publish !== false) fs.writeFileSync(info, JSON.stringify({ url, pid: process.pid }), { mode: 0o600 });
  return {
    url,
    copyIn: (sql, chunks) => copyInto(db, sql, chunks),
    copyOut: (sql) => copyOutOf(db, sql),
    onNotice(channel, listener) {
      if (!opts.channels?.includes(channel)) throw new Error(`the embedded database does not listen on ${channel}`);
      if (unlistened) return listener.lost();
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    },
    async stop() {
      if (info && fs.existsSync(info)) fs.rmSync(info, { force: true });
      await socket.server.stop();
      await db.close();
      fs.rmSync(socket.temporary ? socket.dir : socket.path, { recursive: true, force: true });
      release();
    },
  };
}
