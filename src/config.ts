import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

/** A DNS host name (RFC 1123 labels). */
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z
    .string()
    .default('0.0.0.0')
    .refine(
      (v) => isIP(v) !== 0 || (!/^[\d.]+$/.test(v) && HOSTNAME.test(v)),
      'must be an IP address of this machine or a host name (0.0.0.0 for all)',
    ),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  GAS_ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  GAS_SECRET_KEY: z.string().optional(),
  GAS_SECRET_KEY_PREVIOUS: z.string().optional(),
  PREFER_MAX_WAIT_SECONDS: z.coerce.number().int().min(1).default(600),
  EDITION: z.enum(['enterprise', 'community']).default('enterprise'),
  RATE_LIMIT_RPS: z.coerce.number().int().min(1, 'must be a positive integer').default(55),
  ALLOW_TIMEOUT_BYPASS: bool,
  ROOT_URL: z.string().url('must be an absolute URL').default('http://localhost:8080'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(8),
  MAX_JSON_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024 * 1024),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s]+$/, 'must be a comma-separated list of origins such as https://bh.example.com'))),
  MAX_GRAPHQL_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(32 * 1024 * 1024),
  UPLOADS_PER_CALLER: z.coerce.number().int().positive().default(4),
  MAX_ANONYMOUS_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(128 * 1024),
  UNVERIFIED_BODY_MEMORY_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  MAX_BODY_BYTES_IN_FLIGHT_PER_ADDRESS: z.coerce
    .number()
    .int()
    .positive()
    .default(32 * 1024 * 1024),
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().default(10),
  BODY_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  UPLOAD_IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(3600),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().default(5),
  COSTLY_WORK_PER_CALLER: z.coerce.number().int().positive().default(2),
  COSTLY_WORK_TOTAL: z.coerce.number().int().positive().default(2),
  ANALYSIS_MAX_DELAY_SECONDS: z.coerce.number().min(0).default(30),
  ARCHIVE_MAX_ENTRIES: z.coerce.number().int().positive().default(1000),
  ARCHIVE_MAX_EXPANDED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024 * 1024),
  ARCHIVE_MAX_RATIO: z.coerce.number().positive().default(200),
  UPLOAD_DISK_BYTES_PER_CALLER: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024 * 1024),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) => v.trim())
    .refine(
      (v) =>
        v === '' ||
        /^\d{1,2}$/.test(v) ||
        v.split(',').every((p) => /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/.test(p.trim())),
      'must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses/subnets (e.g. loopback, 10.0.0.0/8)',
    )
    .transform((v): number | string[] | false => (v === '' ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((p) => p.trim()))),
  COLLECTORS_DIR: z.string().default('./collectors'),
  DATAPIPE_POLL_MS: z.coerce.number().int().min(0).default(5000),
  // Empty means unset (as DATABASE_URL): coerced, it would be a cap of 0 and refuse every analysis run.
  ANALYSIS_MAX_HEAP_MB: z
    .literal('')
    .transform(() => undefined)
    .or(z.coerce.number().int().min(1, 'must be a whole number of MiB, at least 1'))
    .optional(),
  SCHEDULER_POLL_MS: z.coerce.number().int().min(0).default(30000),
  INDEX_CHECK_MS: z.coerce.number().int().min(0).default(1000),
  GRAPH_DRIVER: z.literal('pg', 'only "pg" exists: no Neo4j graph store is built yet (see docs/operations.md)').default('pg'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminPassword?: string;
  /** Server key sealing stored secrets (else DATA_DIR/secret.key); previous keys, comma-separated, during rotation. */
  secretKey?: string;
  secretKeyPrevious?: string;
  /** Largest `Prefer: wait=N` honoured; larger requests get this many seconds. */
  preferMaxWaitSeconds: number;
  edition: 'enterprise' | 'community';
  rateLimitRps: number;
  allowTimeoutBypass: boolean;
  rootUrl: string;
  logLevel: string;
  sessionTtlHours: number;
  maxJsonBodyBytes: number;
  maxUploadBytes: number;
  /** Origins allowed to call /graphql from a browser (CORS); none by default. */
  corsOrigins: string[];
  /** Largest multipart GraphQL request (read into memory, so far below maxUploadBytes). */
  maxGraphqlUploadBytes: number;
  /** Uploads one caller may stream at once, and the bytes they may hold on disk together. */
  uploadsPerCaller: number;
  uploadDiskBytesPerCaller: number;
  /** Largest body of a request without credentials (login, SAML callback): read only after the headers named none. */
  maxAnonymousBodyBytes: number;
  /** Bytes of a signed request's body held in memory before its signature is checked; the rest waits on disk. */
  unverifiedBodyMemoryBytes: number;
  /** Connections one client address may hold open at once (0: no limit); trusted proxies are not counted. */
  maxConnectionsPerAddress: number;
  /** Request body bytes one client address may have in memory at once, across its requests. */
  maxBodyBytesInFlightPerAddress: number;
  /** Time limits of a request: its headers, an in-memory body, a pause in an upload, the whole request; keep-alive. */
  timeouts: { headersMs: number; bodyMs: number; uploadIdleMs: number; requestMs: number; keepAliveMs: number };
  /** Longest a job whose files are done waits for analysis while other jobs still ingest. */
  analysisMaxDelayMs: number;
  /** Costly operations (pages of a thousand, Cypher) running at once per caller and in all. */
  costlyWork: { perCaller: number; total: number };
  /** Uploaded archives (zip, gzip): entries, bytes they may expand to, and times their compressed size. */
  archiveLimits: { maxArchiveEntries: number; maxDecompressedBytes: number; maxExpansionRatio: number };
  /**
   * Which proxies in front of the service may name the client in X-Forwarded-For (express `trust proxy`): the
   * client address is what rate limits and login throttling count by. False: the socket's peer.
   */
  trustProxy: number | string[] | false;
  collectorsDir: string;
  /** How often the data pipeline looks for work requested elsewhere (other replicas); 0 = only when asked. */
  datapipePollMs: number;
  /** Most heap one analysis run may take, in MiB; what the process has left when unset (ANALYSIS_MAX_HEAP_MB). */
  analysisMaxHeapMb?: number;
  /** How often the scheduler turns due collection events into jobs (0 = never on its own). */
  schedulerPollMs: number;
  /** How often the path index compares the graph generation (to notice other replicas' writes). */
  indexCheckMs: number;
};

/** Settings of features that do not exist yet, and why setting them is an error. */
const UNBUILT_WHY: Record<string, string> = {
  NEO4J_URI: 'no Neo4j graph store is built yet; the graph lives in PostgreSQL (see docs/operations.md)',
  NEO4J_USER: 'no Neo4j graph store is built yet; the graph lives in PostgreSQL (see docs/operations.md)',
  NEO4J_PASSWORD: 'no Neo4j graph store is built yet; the graph lives in PostgreSQL (see docs/operations.md)',
  REDIS_URL: 'rate-limit counters are kept per process; no Redis store is built yet',
};
const UNBUILT = Object.keys(UNBUILT_WHY);

/** Thrown when the environment does not describe a runnable service; the message lists every bad variable. */
export class ConfigError extends Error {}

/** Reads and validates the configuration from environment variables (see README, Configuration). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Settings that would be accepted and then ignored are refused instead: a user who sets them expects an effect.
  const unbuilt = UNBUILT.filter((name) => env[name] !== undefined && env[name] !== '');
  if (unbuilt.length) {
    throw new ConfigError(`invalid configuration:\n${unbuilt.map((n) => `  ${n}: ${UNBUILT_WHY[n]}`).join('\n')}`);
  }
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // Node refuses a headers timeout longer than the whole request's.
  if (e.HEADERS_TIMEOUT_SECONDS > e.REQUEST_TIMEOUT_SECONDS)
    throw new ConfigError('invalid configuration:\n  HEADERS_TIMEOUT_SECONDS: must not be longer than REQUEST_TIMEOUT_SECONDS');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    adminPassword: e.GAS_ADMIN_PASSWORD,
    secretKey: e.GAS_SECRET_KEY || undefined,
    secretKeyPrevious: e.GAS_SECRET_KEY_PREVIOUS || undefined,
    preferMaxWaitSeconds: e.PREFER_MAX_WAIT_SECONDS,
    edition: e.EDITION,
    rateLimitRps: e.RATE_LIMIT_RPS,
    allowTimeoutBypass: e.ALLOW_TIMEOUT_BYPASS,
    rootUrl: e.ROOT_URL.replace(/\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    maxJsonBodyBytes: e.MAX_JSON_BODY_BYTES,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    corsOrigins: e.CORS_ORIGINS,
    maxGraphqlUploadBytes: e.MAX_GRAPHQL_UPLOAD_BYTES,
    uploadsPerCaller: e.UPLOADS_PER_CALLER,
    uploadDiskBytesPerCaller: e.UPLOAD_DISK_BYTES_PER_CALLER,
    maxAnonymousBodyBytes: e.MAX_ANONYMOUS_BODY_BYTES,
    unverifiedBodyMemoryBytes: e.UNVERIFIED_BODY_MEMORY_BYTES,
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    maxBodyBytesInFlightPerAddress: e.MAX_BODY_BYTES_IN_FLIGHT_PER_ADDRESS,
    timeouts: {
      headersMs: e.HEADERS_TIMEOUT_SECONDS * 1000,
      bodyMs: e.BODY_TIMEOUT_SECONDS * 1000,
      uploadIdleMs: e.UPLOAD_IDLE_TIMEOUT_SECONDS * 1000,
      requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    analysisMaxDelayMs: e.ANALYSIS_MAX_DELAY_SECONDS * 1000,
    costlyWork: { perCaller: e.COSTLY_WORK_PER_CALLER, total: e.COSTLY_WORK_TOTAL },
    archiveLimits: {
      maxArchiveEntries: e.ARCHIVE_MAX_ENTRIES,
      maxDecompressedBytes: e.ARCHIVE_MAX_EXPANDED_BYTES,
      maxExpansionRatio: e.ARCHIVE_MAX_RATIO,
    },
    trustProxy: e.TRUST_PROXY,
    collectorsDir: path.resolve(e.COLLECTORS_DIR),
    datapipePollMs: e.DATAPIPE_POLL_MS,
    analysisMaxHeapMb: e.ANALYSIS_MAX_HEAP_MB,
    schedulerPollMs: e.SCHEDULER_POLL_MS,
    indexCheckMs: e.INDEX_CHECK_MS,
  };
}
