#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
import { Presets, SingleBar } from 'cli-progress';
import { generateAzureHound } from './generate/azurehound.js';
import { generateSharpHound } from './generate/sharphound.js';
import { isTier, TIERS } from './generate/tiers.js';
import { fileType, inCollectionOrder } from './ingest/collection-order.js';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { embeddedInfoFile, isAlive } from './db/embedded.js';
import { migrate } from './db/migrate.js';
import { Database } from './db/pool.js';
import { guardProcess } from './main/process-guards.js';
import { tuneV8ForServing } from './main/v8-serving.js';
import { openStorage, startServer, type Storage } from './main/server.js';
import { createLogger, type Logger } from './logger.js';
import { composeServices } from './main/compose.js';
import type { Services } from './services/index.js';
import { ACCOUNTS_USAGE, secretsCommand, UsageError, userCommand } from './cli/accounts.js';
import { parseCommand } from './cli/args.js';

const USAGE = `usage: gas <command> [options]

commands:
  serve                                   start the HTTP service (REST /api/v2, GraphQL /graphql)
  migrate                                 apply database migrations and exit
${ACCOUNTS_USAGE}
  token create --user <name> [--name <n>] [--json]
                                          issue an API token for a user; prints {id, key, user_id} with --json
  ingest <file|dir|zip>… [--no-analysis] [--wait]
                                          ingest SharpHound/AzureHound JSON (or zips, or gzip) and analyse; takes
                                          the data pipeline's lock (busy: exit 1, or --wait until it is free)
  analyze                                 run analysis now
  generate (--tier S|M|L | --users <n>) --out <dir> [--seed <s>] [--aces <n>] [--azure-users <n>]
                                          write generated SharpHound v6 files for one domain (and AzureHound
                                          files for a tenant with a tier or --azure-users)

configuration comes from the environment (see README): DATABASE_URL, DATA_DIR, PORT, EDITION, …`;

/**
 * Storage for one-off commands. With the embedded default and a server already running on the same DATA_DIR,
 * PGlite's files are that server's: talk to it through the socket it published instead of opening them.
 */
async function cliStorage(config: Config, log: Logger): Promise<Storage> {
  if (!config.databaseUrl) {
    const info = embeddedInfoFile(config.dataDir);
    if (fs.existsSync(info)) {
      const { url, pid } = JSON.parse(fs.readFileSync(info, 'utf8')) as { url: string; pid: number };
      if (isAlive(pid)) {
        const db = new Database(url, { log });
        return { db, kind: 'embedded', close: () => db.close() };
      }
    }
  }
  return openStorage(config, log, { publish: false });
}

async function withServices<T>(config: Config, log: Logger, fn: (s: Services) => Promise<T>): Promise<T> {
  const storage = await cliStorage(config, log);
  try {
    await migrate(storage.db, log);
    // One-off commands start no background work; the secrets are checked only when a command needs one.
    const { services } = await composeServices({
      db: storage.db,
      config,
      log,
      clock: () => new Date(),
      storage: storage.kind,
      secrets: 'lazy',
    });
    return await fn(services);
  } finally {
    await storage.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(USAGE + '\n');
    return command ? 0 : 2;
  }
  const config = loadConfig();
  // One-off commands log only problems; their output is the result on stdout.
  const log = createLogger(command === 'serve' ? config.logLevel : (process.env.LOG_LEVEL ?? 'warn'));

  switch (command) {
    case 'serve': {
      tuneV8ForServing();
      guardProcess(log);
      const server = await startServer(config, log);
      const stop = async (signal: string) => {
        log.info({ signal }, 'shutting down');
        await server.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
      return new Promise<number>(() => undefined);
    }
    case 'migrate': {
      const storage = await cliStorage(config, log);
      try {
        const applied = await migrate(storage.db, log);
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
      } finally {
        await storage.close();
      }
      return 0;
    }
    case 'user':
      return userCommand(rest, (fn) => withServices(config, log, fn));
    case 'secrets':
      return secretsCommand(rest, config, (fn) => withServices(config, log, fn));
    case 'token': {
      const { positionals, values } = parseCommand(rest, { strings: ['user', 'name'], flags: ['json'] });
      if (positionals[0] !== 'create' || !values.user) throw new UsageError('gas token create --user <name> [--name <n>] [--json]');
      const token = await withServices(config, log, async (s) => {
        const principal = await s.identity.principalByName(values.user!);
        return s.tokens.create(principal, { name: values.name ?? null });
      });
      const out = { id: token.id, key: token.key, user_id: token.userId };
      process.stdout.write(
        values.json ? JSON.stringify(out) + '\n' : `token id:  ${out.id}\ntoken key: ${out.key}\n(the key is shown only now)\n`,
      );
      return 0;
    }
    case 'ingest': {
      const { positionals, values } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { 'no-analysis': { type: 'boolean' }, wait: { type: 'boolean' } },
      });
      if (!positionals.length) throw new UsageError('gas ingest <file|dir|zip>… [--no-analysis] [--wait]');
      const listed = positionals.flatMap((p) =>
        fs.statSync(p).isDirectory()
          ? fs
              .readdirSync(p)
              .filter((f) => /\.(json|zip|gz)$/i.test(f))
              .map((f) => path.join(p, f))
          : [p],
      );
      // Users, computers, then groups: fewer placeholder nodes to rewrite (ingest/collection-order.ts).
      const files = inCollectionOrder(listed, (f) => fileType(f));
      // The pipeline's mutex: a running server never writes the graph while this does (busy → exit 1, or --wait).
      const failed = await withServices(config, log, async (s) => {
        const n = await s.datapipe.withIngestLock(() => ingestFiles(s, files), { wait: values.wait });
        if (!values['no-analysis']) process.stdout.write(JSON.stringify({ analysis: await s.datapipe.analyzeNow('gas ingest') }) + '\n');
        return n;
      });
      return failed ? 1 : 0;
    }
    case 'analyze': {
      const result = await withServices(config, log, (s) => s.datapipe.analyzeNow('gas analyze'));
      process.stdout.write(JSON.stringify(result) + '\n');
      return 0;
    }
    case 'generate': {
      const { values } = parseCommand(rest, { strings: ['tier', 'users', 'out', 'seed', 'aces', 'azure-users'], positionals: false });
      const usage = 'gas generate (--tier S|M|L | --users <n>) --out <dir> [--seed <s>] [--aces <n>] [--azure-users <n>]';
      const tier = values.tier?.toUpperCase();
      if (tier !== undefined && !isTier(tier)) throw new UsageError(usage);
      const preset = tier ? TIERS[tier] : undefined;
      const users = values.users ? Number(values.users) : preset?.users;
      const azureUsers = values['azure-users'] ? Number(values['azure-users']) : preset?.azureUsers;
      const seed = Number(values.seed ?? 1);
      const aces = values.aces ? Number(values.aces) : preset?.acesPerObject;
      if (!values.out || !Number.isInteger(users) || users! < 1 || !Number.isInteger(seed) || (aces !== undefined && !(aces >= 0)))
        throw new UsageError(usage);
      if (azureUsers !== undefined && (!Number.isInteger(azureUsers) || azureUsers < 1)) throw new UsageError(usage);
      const r = generateSharpHound(values.out, { users: users!, seed, acesPerObject: aces });
      const az = azureUsers ? generateAzureHound(values.out, { users: azureUsers, seed }) : undefined;
      const files = [...r.files, ...(az?.files ?? [])];
      process.stdout.write(JSON.stringify({ files, objects: r.objects + (az?.objects ?? 0), bytes: r.bytes + (az?.bytes ?? 0) }) + '\n');
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

/** Ingests files with a progress bar (objects per second); returns the number of failed files. */
async function ingestFiles(s: Services, files: string[]): Promise<number> {
  const bar = new SingleBar(
    {
      format: '{file} {bar} {value} objects | {rate} objects/s',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: true,
      noTTYOutput: !process.stderr.isTTY,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
  let failed = 0;
  for (const file of files) {
    const started = Date.now();
    bar.start(0, 0, { file: path.basename(file), rate: 0 });
    const result = await s.datapipe.ingestFile(file, {
      onProgress: (n) => {
        bar.setTotal(Math.max(n, 1));
        bar.update(n, { rate: Math.round(n / Math.max((Date.now() - started) / 1000, 0.001)) });
      },
    });
    bar.stop();
    for (const e of result.errors) process.stderr.write(`gas: ${e.message}\n`);
    failed += result.errors.length;
    for (const f of result.files)
      process.stdout.write(
        JSON.stringify({
          file: f.file,
          type: f.type,
          objects: f.objects,
          nodes: f.nodes,
          edges: f.edges,
          ms: Date.now() - started,
          ...(Object.keys(f.unknownKinds).length ? { unknownKinds: f.unknownKinds } : {}),
          ...(f.skipped ? { skipped: f.skipped } : {}),
        }) + '\n',
      );
  }
  return failed;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      const known = err instanceof ConfigError || err instanceof UsageError || (err as { code?: string }).code !== undefined;
      process.stderr.write(`gas: ${known ? (err as Error).message : ((err as Error).stack ?? String(err))}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    },
  );
}
