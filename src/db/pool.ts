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
 * would also time out callers queued for a busy pool (a long transaction on PGlite), which is load, not an outage;
 * those wait for their own request deadline as before.
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

/** Bytes of an in-process COPY's output handed on at a time (rows may be split anywhere, as a stream's chunks are). */
const COPY_OUT_SLICE = 1 << 20;

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
   * `COPY … FROM STDIN` (text format) fed from `chunks`; only on transactions of a real server, or of an embedded
   * PGlite running in this process (DatabaseOptions.inProcess). PGlite's socket loses protocol sync on COPY, so
   * elsewhere it is absent and callers fall back to parameterised statements. Chunks given as an array are sent
   * with the statement, without waiting for the server to ask; then `sql` may also hold statements around the
   * COPY (one query string, run in order, the first error ending it).
   */
  copyFrom?(sql: string, chunks: readonly (string | Buffer)[] | Iterable<string | Buffer>): Promise<number>;
}

export interface DatabaseOptions {
  /**
   * Whether a statement past its deadline can be cancelled on the server. PGlite cannot; the deadline is then
   * enforced on our side only. @default detected from the server on first connection
   */
  cancellable?: boolean;
  log: Logger;
  /** Sent as the session search_path on every new connection (tests isolate themselves in a schema). */
  searchPath?: string;
  max?: number;
  /** How long a new connection's attempt may take before its caller is told the database is away. @default 5000 */
  connectTimeoutMs?: number;
  /**
   * Prepare parameterised statements (named by a hash of their text), saving the parse and plan of every later
   * run: once per connection on a server; on PGlite, where all connections share one session, once per session for
   * this Database (its names carry an id of its own, so another process's on the same socket never collide).
   * @default true
   */
  prepare?: boolean;
  /**
   * The embedded PGlite this process runs (EmbeddedDatabase): its socket cannot carry COPY, so a transaction's
   * copyFrom and Database.copyOut run through PGlite's own API instead, on its one session.
   */
  inProcess?: InProcessCopy;
}

/** COPY on an embedded PGlite in this process, past its socket (see EmbeddedDatabase). */
export interface InProcessCopy {
  /** `COPY … FROM STDIN` (with statements around it, in one string) fed `chunks`; resolves the rows copied. */
  copyIn(sql: string, chunks: readonly (string | Buffer)[]): Promise<number>;
  /** One `COPY … TO STDOUT`, its whole output. */
  copyOut(sql: string): Promise<Buffer>;
}

/**
 * Statement texts prepared at most, per connection on a server and per session on PGlite: a few hundred are ours;
 * texts built from a request's filters vary with it, and each prepared one is kept until its connection closes
 * (PGlite's session: never), so past this many the rest run unnamed.
 */
const MAX_NAMED = 1_000;
/** SQLSTATE 26000: a prepared statement name the session does not hold. */
const INVALID_STATEMENT_NAME = '26000';

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
 * The only owner of `pg`: pool, type parsers, the per-request deadline and SQLSTATE translation.
 * Every statement run inside a request scope is bound to that request's deadline: past it the caller gets a
 * TIMEOUT AppError at once and, on a real server, the statement is cancelled with pg_cancel_backend.
 */
export class Database implements Queryable {
  readonly pool: pg.Pool;
  private readonly cancelPool: pg.Pool;
  private readonly log: Logger;
  private readonly setSearchPath?: string;
  private features?: { cancellable: boolean; prepare: boolean; shared: boolean; copy: boolean };
  /** Tail of the queue of connections waiting for the one shared PGlite session (see withConnection). */
  private sessionTurn: Promise<void> = Promise.resolve();
  private readonly names = new Map<string, string>();
  /**
   * On PGlite's one session: this Database's statements prepared there. Any of its connections may run one that
   * another prepared; each learns it before it runs the statement (sessionStatement).
   */
  private readonly sessionStatements = new Set<string>();
  /** Names this Database prepares on a shared session start with it (`gas_<id>_`). */
  private readonly sessionPrefix = `gas_${crypto.randomBytes(4).toString('hex')}_`;

  constructor(
    connection: string | pg.PoolConfig,
    private readonly opts: DatabaseOptions,
  ) {
    const base: pg.PoolConfig = typeof connection === 'string' ? { connectionString: connection } : connection;
    this.log = opts.log;
    // keepAlive finds half-open sockets (a server that vanished without a FIN); timedClient keeps a connection
    // attempt from hanging while the database is away, so callers get a 503 promptly instead of a stalled request.
    const Client = timedClient(opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    this.pool = new pg.Pool({ max: opts.max ?? 10, keepAlive: true, Client, ...base, types });
    this.pool.on('error', (err) => this.log.warn({ err }, 'idle database connection failed'));
    // Tests isolate themselves in a schema. It is set on every checkout, not once per connection: PGlite
    // multiplexes all connections onto one session, so another pool may have changed it in between.
    this.setSearchPath = opts.searchPath ? `set search_path to ${pg.escapeIdentifier(opts.searchPath)}, public` : undefined;
    this.cancelPool = new pg.Pool({ max: 1, Client, ...base, types });
    this.cancelPool.on('error', (err) => this.log.warn({ err }, 'idle cancellation connection failed'));
  }

  async query<R = Row>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    return (await this.withConnection((c) => this.run(c, sql, params))).rows as R[];
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.withConnection((c) => this.run(c, sql, params))).rowCount ?? 0;
  }

  /**
   * `COPY (…) TO STDOUT` (text format): each chunk of the output goes to `onChunk` as it arrives, without row
   * objects. Resolves false, running nothing, on PGlite (its socket loses protocol sync on COPY): callers page there;
   * except on the PGlite this process runs (DatabaseOptions.inProcess).
   */
  async copyOut(sql: string, onChunk: (chunk: Buffer) => void): Promise<boolean> {
    return this.withConnection(async (conn) => {
      if (!this.features!.copy) {
        if (!(this.features!.shared && this.opts.inProcess)) return false;
        await this.copyOutInProcess(conn, sql, onChunk);
        return true;
      }
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
        copyFrom: this.features!.copy
          ? (sql, chunks) => this.copy(conn, sql, chunks)
          : this.features!.shared && this.opts.inProcess
            ? (sql, chunks) => this.copyInProcess(conn, sql, chunks)
            : undefined,
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
    // PGlite's session outlives this Database (tests, a CLI on a running server's socket): its statements go with it.
    if (this.sessionStatements.size) {
      const names = [...this.sessionStatements];
      this.sessionStatements.clear();
      await this.pool.query(names.map((n) => `deallocate ${n}`).join('; ')).catch(() => undefined);
    }
    await this.pool.end();
    await this.cancelPool.end();
  }

  /** Waits for the shared session (PGlite) until the callers before have ended theirs; returns this turn's end. */
  private async takeTurn(): Promise<() => void> {
    const previous = this.sessionTurn;
    let end!: () => void;
    this.sessionTurn = new Promise((resolve) => (end = resolve));
    await previous;
    return end;
  }

  private async withConnection<T>(fn: (conn: Connection) => Promise<T>): Promise<T> {
    // On PGlite the turn comes before the connection: while another connection's transaction holds the session its
    // socket answers nobody else, a new connection's handshake included, and a caller that had to open one was told
    // the database was away once CONNECT_TIMEOUT_MS passed (an ingest's file transaction lasts seconds).
    let endTurn: (() => void) | undefined = this.features?.shared ? await this.takeTurn() : undefined;
    const client = await this.pool.connect().catch((err) => {
      endTurn?.();
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
      if (!this.features) this.features = await this.detect(client);
      // PGlite runs every connection on one session and its socket server takes turns per protocol message, so
      // two connections' Parse/Bind/Execute interleave: one statement is bound with another's parameters
      // ("bind message supplies 2 parameters, but prepared statement requires 1", or worse, a wrong result).
      // There, one connection at a time has the session, for a statement or a whole transaction. (Only the first
      // callers, before the session was known to be shared, take their turn here, holding a connection.)
      if (this.features.shared && !endTurn) endTurn = await this.takeTurn();
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
        endTurn?.();
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
    const name = this.features!.prepare && params.length ? this.statementName(sql) : undefined;
    const statement = name ? { name, text: sql, values: params as unknown[] } : { text: sql, values: params as unknown[] };
    const running = enqueue(conn, () =>
      name && this.features!.shared ? this.sessionStatement(conn.client, name, statement) : conn.client.query<Row>(statement),
    );
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

  /**
   * A COPY on the embedded PGlite in this process, behind this connection's statements: PGlite has one session, and
   * while this connection's transaction is open that session serves no other connection (withConnection's turn,
   * and the socket server's queue for other processes), so the COPY runs inside the transaction.
   */
  private copyInProcess(conn: Connection, sql: string, chunks: readonly (string | Buffer)[] | Iterable<string | Buffer>): Promise<number> {
    const done = enqueue(conn, async () => {
      // The in-process COPY does not go through the connection: after the transaction it would run in whatever
      // transaction holds the session then (or in none), so a late caller fails instead.
      if (conn.ended) throw new Error('COPY on a transaction that has ended');
      return this.opts.inProcess!.copyIn(sql, [...chunks]);
    });
    return done.catch((err) => this.rethrow(err, sql));
  }

  /**
   * A COPY out of the embedded PGlite in this process, in a transaction of this connection's: while it is open the
   * one session serves nothing else (see copyInProcess), so the COPY reads what this connection would. The output
   * comes whole and is handed on in slices with a turn between, as a server's stream would come.
   */
  private async copyOutInProcess(conn: Connection, sql: string, onChunk: (chunk: Buffer) => void): Promise<void> {
    // Begun and ended without the request's deadline (as tx() rolls back): a transaction left open would keep the
    // one session from every other connection.
    await enqueue(conn, () => conn.client.query('begin')).catch((err) => this.rethrow(err, 'begin'));
    let out: Buffer;
    try {
      out = await enqueue(conn, () => this.opts.inProcess!.copyOut(sql)).catch((err) => this.rethrow(err, sql));
    } finally {
      await enqueue(conn, () => conn.client.query('commit')).catch((err) => this.rethrow(err, 'commit'));
    }
    for (let at = 0; at < out.length; at += COPY_OUT_SLICE) {
      if (at) await new Promise((resolve) => setImmediate(resolve));
      onChunk(out.subarray(at, at + COPY_OUT_SLICE));
    }
  }

  /**
   * A named statement on PGlite's shared session. `pg` knows per connection which names it has prepared, and would
   * send a Parse that the session refuses ("already exists") for a name another connection prepared: the
   * connection is told of this Database's prepared names first, and what it prepares is kept for the others. A
   * name the session no longer holds (DEALLOCATE from elsewhere) is forgotten on its error, prepared again next.
   */
  private async sessionStatement(client: pg.PoolClient, name: string, statement: pg.QueryConfig): Promise<pg.QueryResult<Row>> {
    const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
    if (this.sessionStatements.has(name)) parsed[name] ??= statement.text;
    try {
      return await client.query<Row>(statement);
    } catch (err) {
      if ((err as { code?: string }).code === INVALID_STATEMENT_NAME) {
        this.sessionStatements.delete(name);
        delete parsed[name];
      }
      throw err;
    } finally {
      if (parsed[name] !== undefined) this.sessionStatements.add(name);
    }
  }

  /** PGlite (embedded) reports itself in version(); it cannot cancel statements, and its connections share a session. */
  private async detect(client: pg.PoolClient): Promise<{ cancellable: boolean; prepare: boolean; shared: boolean; copy: boolean }> {
    const { rows } = await client.query<{ version: string }>('select version()');
    const server = !/PGlite/i.test(rows[0]?.version ?? '');
    return { cancellable: this.opts.cancellable ?? server, prepare: this.opts.prepare ?? true, shared: !server, copy: server };
  }

  /** The statement's name; none past MAX_NAMED texts (it runs unnamed). */
  private statementName(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (!name) {
      if (this.names.size >= MAX_NAMED) return undefined;
      const hash = crypto.createHash('sha1').update(sql).digest('hex').slice(0, 20);
      name = (this.features?.shared ? this.sessionPrefix : 'gas_') + hash;
      this.names.set(sql, name);
    }
    return name;
  }

  private cancel(client: pg.PoolClient): void {
    const pid = (client as unknown as { processID?: number }).processID;
    if (!this.features?.cancellable || !pid) return;
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
