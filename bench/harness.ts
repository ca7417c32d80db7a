import autocannon from 'autocannon';
import type { Express } from 'express';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import pg from 'pg';
import { migrate } from '../src/db/migrate';
import { Database } from '../src/db/pool';
import { startEmbedded } from '../src/db/embedded';
import { loadConfig, type Config } from '../src/config';
import { createLogger, type Logger } from '../src/logger';
import { compose, type Composed } from '../src/main/compose-app';

export const log = createLogger(process.env.BENCH_LOG_LEVEL ?? 'silent');

/**
 * A fresh, empty schema of the server at `base` (dropped first if it is there) and a URL whose search_path is it: a
 * startup option, not a per-checkout SET, so a benchmark pays no extra round trip.
 */
export async function freshSchema(base: string, schema: string): Promise<string> {
  const boot = new pg.Client({ connectionString: base });
  await boot.connect();
  try {
    await boot.query(`drop schema if exists ${schema} cascade; create schema ${schema}`);
  } finally {
    await boot.end();
  }
  return `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}`;
}

/** The same schema with every migration applied (probes that then open their own connections). */
export async function migratedSchema(base: string, schema: string): Promise<string> {
  const url = await freshSchema(base, schema);
  const db = new Database(url, { log, max: 2 });
  try {
    await migrate(db, log);
  } finally {
    await db.close();
  }
  return url;
}

/** A benchmark's database, and fresh migrated schemas beside it on the same server or cluster. */
export interface BenchStore {
  db: Database;
  url: string;
  kind: 'postgres' | 'embedded';
  /** A fresh migrated schema on the same server (`bench_<pid><suffix>`): its URL and how to drop it. */
  sibling(suffix: string): Promise<{ url: string; drop(): Promise<void> }>;
  close(): Promise<void>;
}

async function sibling(base: string, schema: string): Promise<{ url: string; drop(): Promise<void> }> {
  const url = await migratedSchema(base, schema);
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * The database a benchmark runs on: BENCH_DATABASE_URL (a real server, a schema of its own) or a fresh embedded
 * cluster in a temporary directory, started as `gas serve` starts it on DATA_DIR; removed at close.
 */
export async function benchDatabase(suffix = '', logger = log): Promise<BenchStore> {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    const schema = `bench_${process.pid}${suffix}`;
    const schemaUrl = await freshSchema(url, schema);
    const db = new Database(schemaUrl, { log: logger, max: 20 });
    await migrate(db, log);
    return {
      db,
      url: schemaUrl,
      kind: 'postgres',
      sibling: (s) => sibling(url, `bench_${process.pid}${suffix}${s}`),
      async close() {
        await db.query(`drop schema ${schema} cascade`);
        await db.close();
      },
    };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-bench-'));
  const embedded = await startEmbedded(dataDir, logger, { publish: false });
  const db = new Database(embedded.url, { log: logger, max: 20 });
  await migrate(db, log);
  let closed = false;
  return {
    db,
    url: embedded.url,
    kind: 'embedded',
    sibling: (s) => sibling(embedded.url, `bench_${process.pid}${suffix}${s}`),
    async close() {
      if (closed) return;
      closed = true;
      await db.close();
      await embedded.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A benchmarked service's settings: the defaults, no rate limit, no data pipeline polling, a known admin password. */
export function benchConfig(overrides: Partial<Config> = {}): Config & { adminPassword: string } {
  return { ...loadConfig({}), rateLimitRps: 1_000_000, adminPassword: 'bench-admin-password', datapipePollMs: 0, ...overrides };
}

/** The whole service over a benchmark's database, through the composition root, with the administrator created. */
export async function benchService(
  store: { db: Database; kind: string },
  config: Config & { adminPassword: string },
  logger: Logger = log,
): Promise<Composed> {
  const composed = await compose({ db: store.db, config, log: logger, clock: () => new Date(), storage: store.kind });
  await composed.services.identity.ensureAdmin(config.adminPassword);
  return composed;
}

export async function listen(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, close: () => new Promise((r) => server.close(() => r())) };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Drives one URL with autocannon (10 connections by default) and returns throughput and latency. */
export async function load(
  url: string,
  opts: { headers?: Record<string, string>; duration?: number; connections?: number } = {},
): Promise<LoadResult> {
  // The load generator runs in a worker thread so it does not share the server's event loop.
  const r = await autocannon({ url, headers: opts.headers, duration: opts.duration ?? 5, connections: opts.connections ?? 10, workers: 1 });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

export function ratio(ours: number, base: number): string {
  return (ours / base).toFixed(2);
}
