import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { CopyIn } from './copy-in.js';
import { AppError, badRequest, conflict, internal, timeout, unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { MSG } from '../messages.js';
import { currentScope } from '../scope.js';

export type Row = Record<string, unknown>;

// setTimeout cannot wait longer than 2^31-1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long a checkout may wait for a new connection before the caller is told the database is away. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Seconds a client is asked to wait (Retry-After) while the database is unreachable. */
export const DB_RETRY_AFTER_S = 2;

/**
 * A client class whose connection attempt gives up after `ms`. Set on the client, not the pool: the pool's option
 * would also time out callers queued for a busy pool, which is load, not an outage; those wait for their own
 * request deadline as before.
 */
function timedClient(ms: number): typeof pg.Client {
  return class TimedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(
        typeof config === 'string' ? { connectionString: config, connectionTimeoutMillis: ms } : { connectionTimeoutMillis: ms, ...config },
      );
    }
  };
}

/**
 * One checked-out connection and its last statement, which must end before the connection is returned. Statements
 * a caller issues without waiting for the one before (the ingest queues a batch's statements together) start once
 * it has ended: pg's own queue for that is deprecated, and warns on stderr the first time it is used.
 */
interface Connection {
  client: pg.PoolClient;
  last: Promise<unknown>;
  /** Set when the connection's transaction has ended (committed or rolled back). */
  ended?: boolean;
}

/** Starts `start` once the connection's last statement has ended, and makes it the last one. */
function enqueue<T>(conn: Connection, start: () => Promise<T>): Promise<T> {
  const started = conn.last.then(start);
  conn.last = started.catch(() => undefined);
  return started;
}

/** The narrow interface stores are written against: a plain connection or an open transaction. */
export interface Queryable {
  /** Runs one parameterised statement and returns its rows. */
  query<R = Row>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs one parameterised statement and returns the number of rows it touched. */
  execute(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * `COPY … FROM STDIN` (text format) fed from `chunks`; on transactions (absent on a plain connection). Chunks
   * given as an array are sent with the statement, without waiting for the server to ask; then `sql` may also hold
   * statements around the COPY (one query string, run in order, the first error ending it).
   */
  copyFrom?(sql: string, chunks: readonly (string | Buffer)[] | Iterable<string | Buffer>): Promise<number>;
}

export interface DatabaseOptions {
  /** Whether a statement past its deadline is cancelled on the server (pg_cancel_backend). @default true */
  cancellable?: boolean;
  log: Logger;
  /** Sent as the session search_path on every new connection (tests isolate themselves in a schema). */
  searchPath?: string;
  max?: number;
  /** How long a new connection's attempt may take before its caller is told the database is away. @default 5000 */
  connectTimeoutMs?: number;
  /**
   * Prepare parameterised statements (named by a hash of their text) once per connection, saving the parse and
   * plan of every later run. @default true
   */
  prepare?: boolean;
}

/**
 * Statement texts prepared at most per connection: a few hundred are ours; texts built from a request's filters
 * vary with it, and each prepared one is kept until its connection closes, so past this many the rest run unnamed.
 */
const MAX_NAMED = 1_000;

// int8 and numeric as JS numbers: our ids and counts stay far below 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    if (oid === 1016 || oid === 1231) {
      // int8[] and numeric[]
      const parseArray = pg.types.getTypeParser(oid as never, 'text') as unknown as (v: string) => (string | null)[];
      return (v: string) => parseArray(v).map((x) => (x === null ? null : Number(x)));
    }
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * What a worker thread needs to open its own pool to the same database, as a message can carry it (no functions):
 * undefined for a database given as a pg config object.
 */
export interface DatabaseSettings {
  url: string;
  searchPath?: string;
  cancellable: boolean;
  prepare: boolean;
  connectTimeoutMs?: number;
}

/**
 * The only owner of `pg`: pool, type parsers, the per-request deadline and SQLSTATE translation.
 * Every statement run inside a request scope is bound to that request's deadline: past it the caller gets a
 * TIMEOUT AppError at once and, on a real server, the statement is cancelled with pg_cancel_backend.
 */
export class Database implements Queryable {
  readonly pool: pg.Pool;
  /** How to open the same database from a worker thread (undefined when given a pg config object). */
  readonly settings?: DatabaseSettings;
  private readonly cancelPool: pg.Pool;
  private readonly log: Logger;
  private readonly setSearchPath?: string;
  private closing = false;
  private readonly cancellable: boolean;
  private readonly prepare: boolean;
  private readonly names = new Map<string, string>();

  /** The same database opened again from its settings (a worker thread's own pool of `max` connections). */
  static fromSettings(settings: DatabaseSettings, opts: { log: Logger; max: number }): Database {
    const { url, ...rest } = settings;
    return new Database(url, { ...rest, ...opts });
  }

  constructor(connection: string | pg.PoolConfig, opts: DatabaseOptions) {
    const base: pg.PoolConfig = typeof connection === 'string' ? { connectionString: connection } : connection;
    this.log = opts.log;
    this.cancellable = opts.cancellable ?? true;
    this.prepare = opts.prepare ?? true;
    if (typeof connection === 'string')
      this.settings = {
        url: connection,
        searchPath: opts.searchPath,
        cancellable: this.cancellable,
        prepare: this.prepare,
        connectTimeoutMs: opts.connectTimeoutMs,
      };
    // keepAlive finds half-open sockets (a server that vanished without a FIN); timedClient keeps a connection
    // attempt from hanging while the database is away, so callers get a 503 promptly instead of a stalled request.
    const Client = timedClient(opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    this.pool = new pg.Pool({ max: opts.max ?? 10, keepAlive: true, Client, ...base, types });
    // A pool being closed has sent its connections their goodbye; a server stopping right after (the embedded
    // cluster at the end of a command) may still tell them it is terminating them: expected, not a warning.
    this.pool.on('error', (err) => this.closing || this.log.warn({ err: brief(err) }, 'idle database connection failed'));
    // Tests isolate themselves in a schema: set on every checkout, so a statement that changed it cannot leak.
    this.setSearchPath = opts.searchPath ? `set search_path to ${pg.escapeIdentifier(opts.searchPath)}, public` : undefined;
    this.cancelPool = new pg.Pool({ max: 1, Client, ...base, types });
    this.cancelPool.on('error', (err) => this.closing || this.log.warn({ err: brief(err) }, 'idle cancellation connection failed'));
  }

  async query<R = Row>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return (await this.withConnection((c) => this.run(c, sql, params))).rows as R[];
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.withConnection((c) => this.run(c, sql, params))).rowCount ?? 0;
  }

  /**
   * `COPY (…) TO STDOUT` (text format): each chunk of the output goes to `onChunk` as it arrives, without row
   * objects. Resolves true once the output has ended.
   */
  async copyOut(sql: string, onChunk: (chunk: Buffer) => void): Promise<boolean> {
    return this.withConnection(async (conn) => {
      // A throw in onChunk is kept and the rest of the output drained, so the connection stays in protocol sync.
      let failed: unknown;
      const done = enqueue(
        conn,
        () =>
          new Promise<void>((resolve, reject) => {
            const stream = conn.client.query(copyStreams.to(sql));
            stream.on('data', (chunk: Buffer) => {
              // pg-copy-streams reads the socket in a loop while data is buffered: without a pause per chunk a large
              // COPY would hold the event loop for its whole length (an index rebuild stalled queries for ~0.3 s).
              stream.pause();
              setImmediate(() => stream.resume());
              if (failed === undefined) {
                try {
                  onChunk(chunk);
                } catch (err) {
                  failed = err;
                }
              }
            });
            stream.on('end', () => (failed === undefined ? resolve() : reject(failed)));
            stream.on('error', reject);
          }),
      );
      await done.catch((err) => this.rethrow(err, sql));
      return true;
    });
  }

  /** Runs `fn` in one transaction; any throw rolls it back, so nothing half-written survives. */
  async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.withConnection(async (conn) => {
      const q: Queryable = {
        query: async <R = Row>(sql: string, params: readonly unknown[] = []) => (await this.run(conn, sql, params)).rows as R[],
        execute: async (sql, params = []) => (await this.run(conn, sql, params)).rowCount ?? 0,
        copyFrom: (sql, chunks) => this.copy(conn, sql, chunks),
      };
      await this.run(conn, 'begin', []);
      try {
        const result = await fn(q);
        await this.run(conn, 'commit', []);
        return result;
      } catch (err) {
        // Roll back only after a statement abandoned at the deadline has ended.
        await conn.last;
        await conn.client.query('rollback').catch((e) => this.log.warn({ err: e }, 'rollback failed'));
        throw err;
      } finally {
        conn.ended = true;
      }
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.pool.end();
    await this.cancelPool.end();
  }

  private async withConnection<T>(fn: (conn: Connection) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((err) => {
      this.log.warn({ err: brief(err) }, 'database connection failed');
      throw databaseAway();
    });
    // pg-pool listens for 'error' only on idle clients. A checked-out client whose server connection drops
    // (pg_terminate_backend, a restart, a cut network) emits 'error' with nobody listening, which would end the
    // process. The statement in flight rejects on its own; here we only note that the client is broken, so it is
    // destroyed on release rather than handed to the next caller.
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken = err;
      this.log.warn({ err: brief(err) }, 'database connection lost while in use');
    };
    client.on('error', onError);
    const conn: Connection = { client, last: Promise.resolve() };
    try {
      if (this.setSearchPath) await client.query(this.setSearchPath);
      return await fn(conn);
    } catch (err) {
      if (!(err instanceof AppError) && isConnectionLoss(err)) throw databaseAway();
      throw err;
    } finally {
      // A statement abandoned at its deadline may still be running; the connection goes back only once it ends.
      const release = () => {
        client.removeListener('error', onError);
        client.release(broken);
      };
      conn.last.then(release, release);
    }
  }

  private async run(conn: Connection, sql: string, params: readonly unknown[]): Promise<pg.QueryResult<Row>> {
    const scope = currentScope();
    const deadline = scope?.deadline;
    if (deadline !== undefined && (Date.now() >= deadline || scope!.signal.aborted)) {
      throw timeout('database', MSG.timedOut);
    }
    const name = this.prepare && params.length ? this.statementName(sql) : undefined;
    const statement = name ? { name, text: sql, values: params as unknown[] } : { text: sql, values: params as unknown[] };
    const running = enqueue(conn, () => conn.client.query<Row>(statement));
    if (deadline === undefined) return running.catch((err) => this.rethrow(err, sql));

    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          this.cancel(conn.client);
          reject(timeout('database', MSG.timedOut));
        },
        Math.min(deadline - Date.now(), MAX_TIMER_MS),
      );
    });
    try {
      return await Promise.race([running.catch((err) => this.rethrow(err, sql)), expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async copy(conn: Connection, sql: string, chunks: readonly (string | Buffer)[] | Iterable<string | Buffer>): Promise<number> {
    const done = enqueue(conn, async () => {
      // Rows held in memory already go on the wire behind the statement (see copy-in.ts); a lazy source is streamed
      // once the server asks for it, so it is never held whole.
      if (Array.isArray(chunks)) {
        const copy = new CopyIn(sql, chunks);
        conn.client.query(copy);
        return copy.done;
      }
      const stream = conn.client.query(copyStreams.from(sql));
      await pipeline(Readable.from(chunks, { objectMode: false }), stream);
      return stream.rowCount;
    });
    return done.catch((err) => this.rethrow(err, sql));
  }

  /** The statement's name; none past MAX_NAMED texts (it runs unnamed). */
  private statementName(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (!name) {
      if (this.names.size >= MAX_NAMED) return undefined;
      const hash = crypto.createHash('sha1').update(sql).digest('hex').slice(0, 20);
      name = 'gas_' + hash;
      this.names.set(sql, name);
    }
    return name;
  }

  private cancel(client: pg.PoolClient): void {
    const pid = (client as unknown as { processID?: number }).processID;
    if (!this.cancellable || !pid) return;
    this.cancelPool
      .query('select pg_cancel_backend($1)', [pid])
      .catch((err) => this.log.warn({ err, pid }, 'could not cancel a statement past its deadline'));
  }

  private rethrow(err: unknown, sql: string): never {
    // Statements start with a "-- area.name" label; it names the statement in logs without logging SQL or values.
    const statement = /^\s*--\s*([\w.]+)/.exec(sql)?.[1] ?? sql.slice(0, 40);
    throw translateDatabaseError(err, this.log.child({ statement }));
  }
}

/** Turns a driver error into an AppError; anything unexpected is logged here and surfaces as a plain 500. */
export function translateDatabaseError(err: unknown, log: Logger): AppError {
  if (err instanceof AppError) return err;
  if (isConnectionLoss(err)) return databaseAway();
  const code = (err as { code?: string }).code;
  switch (code) {
    case '23505':
      return conflict('database', 'A record with the same unique value already exists.');
    case '57014':
      return timeout('database', MSG.timedOut);
    case '22P02':
    case '22003':
    case '22007':
    case '22008':
      return badRequest('database', 'A value in the request has the wrong format or is out of range.');
    case '40001':
    case '40P01':
      return unavailable('database', 'The database was busy with a conflicting change; please retry.');
    default:
      if (code && STORAGE_TROUBLE.test(code)) {
        // Not the request's fault and not a bug of ours: the operator must act (free disk, restore the files).
        log.error({ err: brief(err) }, 'the database cannot read or write its storage');
        return retryLater('The database cannot read or store data right now (out of space, or its files are unreadable); retry later.');
      }
      log.error({ err }, 'unexpected database error');
      return internal('database', MSG.internalDb, err);
  }
}

/** 503 with Retry-After: the database went away (restart, terminated backend, network); retrying later is right. */
export function databaseAway(): AppError {
  return retryLater('The database is not reachable right now; retry shortly.');
}

/** A 503 of the database with Retry-After: the state passes (or is fixed by the operator) and the request can be repeated. */
function retryLater(message: string): AppError {
  return new AppError('UNAVAILABLE', 'database', message, { headers: { 'Retry-After': String(DB_RETRY_AFTER_S) } });
}

/**
 * SQLSTATE class 53 (insufficient resources: disk full, out of memory) and 58 (system error: an I/O error, a data
 * file gone, as when an embedded store's directory is removed under it): the database is there but cannot serve.
 */
const STORAGE_TROUBLE = /^5[38]/;

// SQLSTATE class 08 (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect now), 53300 (too many
// connections) and the socket-level errors Node and pg report when a connection is refused or cut.
const LOST_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const LOST_MESSAGE = /Connection terminated|not queryable|timeout exceeded when trying to connect|Client was closed|connection is closed/i;

/** Whether an error means the connection to the database is gone (as opposed to a statement failing). */
export function isConnectionLoss(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (LOST_CODES.has(code) || code.startsWith('08')) return true;
  return typeof e.message === 'string' && LOST_MESSAGE.test(e.message);
}

/** The message and code of a driver error, without a stack (connection failures are expected, not bugs). */
function brief(err: unknown): { message: string; code?: string } {
  const e = err as { message?: string; code?: string };
  return { message: String(e?.message ?? err), code: e?.code };
}
