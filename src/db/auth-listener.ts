import pg from 'pg';
import type { Logger } from '../logger.js';

/** The channel migration 0020's triggers notify on every change to tokens, users, roles and permissions. */
export const AUTH_CHANNEL = 'gas_auth';
/** The channel migration 0025's trigger notifies on every new graph generation (any writer: server, CLI, replica). */
export const GRAPH_CHANNEL = 'gas_graph';
/** How often the listening connection proves it is alive, and how long an answer may take before it is not. */
const HEARTBEAT_MS = 500;
const STALE_MS = 1_000;
const RETRY_MS = 1_000;
/** The listening connection's application_name (pg_stat_activity). */
export const FEED_NAME = 'gas-auth-feed';

export interface AuthChangeFeed {
  stop(): Promise<void>;
}
export type ChangeFeed = AuthChangeFeed;

/** Auth changes (LISTEN gas_auth), with this server's own connections listening too (see listenOnPool). */
export function listenForAuthChanges(
  config: pg.ClientConfig,
  opts: { log: Logger; onChange(): void; onLive(live: boolean): void; pool?: pg.Pool },
): AuthChangeFeed {
  return listenForChanges({ channel: AUTH_CHANNEL, name: FEED_NAME, what: 'auth change feed' }, config, opts);
}

/**
 * Listens on `feed.channel` on a connection of its own and reports its notices: `onChange` per notice,
 * `onLive(true)` once listening, `onLive(false)` the moment it may have missed one (connection lost, or a heartbeat
 * unanswered for STALE_MS: notices arrive in order with query answers, so an answered heartbeat proves every change
 * committed before it was sent has been seen). Reconnects until stopped.
 */
export function listenForChanges(
  feed: { channel: string; name: string; what: string },
  config: pg.ClientConfig,
  opts: { log: Logger; onChange(): void; onLive(live: boolean): void; pool?: pg.Pool },
): ChangeFeed {
  const unhook = opts.pool ? listenOnPool(opts.pool, opts.onChange) : () => undefined;
  let stopped = false;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const lost = (c: pg.Client, why: string, err?: unknown) => {
    if (current !== c) return;
    current = undefined;
    clearTimeout(timer);
    opts.onLive(false);
    c.end().catch(() => undefined);
    if (stopped) return;
    opts.log.warn({ err }, `${feed.what} lost (${why}); reconnecting`);
    timer = setTimeout(() => void connect(), RETRY_MS).unref();
  };

  const heartbeat = (c: pg.Client) => {
    timer = setTimeout(async () => {
      const late = setTimeout(() => lost(c, 'heartbeat unanswered'), STALE_MS).unref();
      try {
        await c.query('select 1');
        clearTimeout(late);
        if (current === c) heartbeat(c);
      } catch (err) {
        clearTimeout(late);
        lost(c, 'heartbeat failed', err);
      }
    }, HEARTBEAT_MS).unref();
  };

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ ...config, keepAlive: true, application_name: feed.name });
    c.on('error', (err) => lost(c, 'connection error', err));
    c.on('end', () => lost(c, 'connection ended'));
    c.on('notification', (n) => {
      if (n.channel === feed.channel) opts.onChange();
    });
    current = c;
    try {
      await c.connect();
      await c.query(`listen ${feed.channel}`);
      if (current !== c || stopped) return void c.end().catch(() => undefined);
      opts.onLive(true);
      heartbeat(c);
    } catch (err) {
      lost(c, 'could not listen', err);
    }
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      unhook();
      clearTimeout(timer);
      const c = current;
      current = undefined;
      opts.onLive(false);
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * Makes every connection of `pool` listen too, from its next checkout on. PostgreSQL hands a session its own
 * notices before the ReadyForQuery that ends its transaction, and pg emits them before the statement resolves: a
 * change made through this server invalidates before the write returns, so the very next request sees it. (The
 * dedicated listener alone would race that request by the notice's delivery to another backend.)
 */
function listenOnPool(pool: pg.Pool, onChange: () => void): () => void {
  const listening = new WeakSet<pg.PoolClient>();
  const onNotice = (n: pg.Notification) => {
    if (n.channel === AUTH_CHANNEL) onChange();
  };
  const onAcquire = (client: pg.PoolClient) => {
    if (listening.has(client)) return;
    listening.add(client);
    client.on('notification', onNotice);
    // Queued ahead of the caller's first statement on this connection; a failure there fails that statement too.
    client.query(`listen ${AUTH_CHANNEL}`).catch(() => undefined);
  };
  pool.on('acquire', onAcquire);
  return () => void pool.removeListener('acquire', onAcquire);
}
