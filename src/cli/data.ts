import fs from 'node:fs';
import path from 'node:path';
import type { AnalysisProgress } from '../analysis/run.js';
import { importPglite } from '../db/embedded/pglite-import.js';
import { migrate } from '../db/migrate.js';
import { generateAzureHound, plannedAzureHoundObjects } from '../generate/azurehound.js';
import { generateSharpHound, plannedSharpHoundObjects } from '../generate/sharphound.js';
import { TIERS } from '../generate/tiers.js';
import { fileType, inCollectionOrder } from '../ingest/collection-order.js';
import { openCommandStorage } from '../main/command-storage.js';
import type { Services } from '../services/index.js';
import { UsageError } from './args.js';
import { commandContext, printJson, withServices } from './context.js';
import { Progress } from './progress.js';
import { table } from './table.js';

const COLLECTOR_FILE = /\.(json|zip|gz)$/i;

export async function migrateCommand(): Promise<void> {
  const { config, log } = commandContext();
  const storage = await openCommandStorage(config, log);
  try {
    const applied = await migrate(storage.db, log);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await storage.close();
  }
}

/** Moves an earlier version's PGlite database in DATA_DIR into the embedded PostgreSQL (once, before the first start). */
export async function migratePgliteCommand(): Promise<void> {
  const { config, log } = commandContext();
  if (config.databaseUrl)
    throw new UsageError("migrate-pglite moves DATA_DIR's earlier database into the embedded PostgreSQL: unset DATABASE_URL");
  const done = await importPglite(config.dataDir, log);
  process.stdout.write(
    `migrated ${done.rows} rows in ${done.tables} tables; the earlier database is kept in ${done.kept} (remove it once all is well)\n`,
  );
}

/**
 * The files a list of paths names: files as given, directories by their .json, .zip and .gz files. A path that does
 * not exist, cannot be read or holds no collector file is a usage error naming it (exit 2), before anything opens.
 */
export function collectorFiles(paths: readonly string[]): string[] {
  const refuse = (p: string, why: string): never => {
    throw new UsageError(`${p}: ${why}`);
  };
  return paths.flatMap((p) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
      fs.accessSync(p, fs.constants.R_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      return refuse(p, code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message);
    }
    if (stat.isDirectory()) {
      const inside = fs
        .readdirSync(p)
        .filter((f) => COLLECTOR_FILE.test(f))
        .map((f) => path.join(p, f))
        .filter((f) => fs.statSync(f).isFile());
      return inside.length ? inside : refuse(p, 'the directory holds no collector files (.json, .zip or .gz)');
    }
    return stat.isFile() ? [p] : refuse(p, 'not a file or a directory');
  });
}

interface FileRow {
  file: string;
  type: string;
  objects: number;
  nodes: number;
  edges: number;
  ms: number;
  unknownKinds?: Record<string, number>;
  skipped?: Record<string, number>;
}

const sum = (o: Record<string, number> | undefined) => Object.values(o ?? {}).reduce((n, v) => n + v, 0);

/** Ingests files one by one with a progress bar each; returns one row per ingested file and the number that failed. */
async function ingestFiles(s: Services, files: string[], json: boolean): Promise<{ rows: FileRow[]; failed: number }> {
  const rows: FileRow[] = [];
  let failed = 0;
  for (const file of files) {
    const started = Date.now();
    const bar = new Progress(`ingest ${path.basename(file)}`, 'bytes', { json });
    bar.start(fs.statSync(file).size);
    const result = await s.datapipe.ingestFile(file, {
      progress: (p) =>
        bar.update({
          done: p.bytesRead,
          total: p.bytesTotal,
          counts: { objects: p.objects, edges: p.edges },
          // An archive's entry by name; once every byte is read, what is left is the held edges and the commit.
          detail: [p.file === path.basename(file) ? '' : p.file, p.bytesRead >= p.bytesTotal ? 'finishing' : 'reading']
            .filter(Boolean)
            .join(', '),
        }),
    });
    const ms = Date.now() - started;
    const objects = result.files.reduce((n, f) => n + f.objects, 0);
    const edges = result.files.reduce((n, f) => n + f.edges, 0);
    bar.end(
      result.errors.length
        ? `failed (${result.errors.length} of its files)`
        : `${objects.toLocaleString('en-US')} objects, ${edges.toLocaleString('en-US')} edges`,
    );
    for (const e of result.errors) process.stderr.write(`gas: ${e.message}\n`);
    failed += result.errors.length;
    for (const f of result.files) {
      const row: FileRow = { file: f.file, type: f.type, objects: f.objects, nodes: f.nodes, edges: f.edges, ms };
      if (Object.keys(f.unknownKinds).length) row.unknownKinds = f.unknownKinds;
      if (f.skipped) row.skipped = f.skipped;
      rows.push(row);
      if (json) printJson(row);
    }
  }
  return { rows, failed };
}

function fileTable(rows: FileRow[]): string {
  return table(
    ['file', 'type', 'objects', 'nodes', 'edges', 'skipped', 'unknown', 'seconds'],
    rows.map((r) => [r.file, r.type, r.objects, r.nodes, r.edges, sum(r.skipped), sum(r.unknownKinds), (r.ms / 1000).toFixed(1)]),
  );
}

interface AnalysisSummary {
  edges?: Record<string, number>;
  tierZero?: number;
  nodesUpdated?: number;
  ms?: number;
}

/** Runs analysis with a progress bar of its stages; prints its result as a table, or as `{analysis}` JSON. */
async function analyse(s: Services, by: string, json: boolean): Promise<void> {
  const bar = new Progress('analysis', 'steps', { json });
  bar.start(1);
  const onProgress = (p: AnalysisProgress) =>
    bar.update({
      done: p.done,
      total: p.total,
      detail:
        p.stage === 'loading the graph'
          ? `loading ${p.nodes.toLocaleString('en-US')} nodes, ${p.edges.toLocaleString('en-US')} edges`
          : p.stage,
    });
  const result = (await s.datapipe.analyzeNow(by, onProgress)) as AnalysisSummary | null;
  const derived = sum(result?.edges);
  bar.end(`${derived.toLocaleString('en-US')} derived edges, ${result?.tierZero ?? 0} in Tier Zero`);
  if (json) printJson({ analysis: result });
  else {
    const kinds = Object.entries(result?.edges ?? {}).sort(([, a], [, b]) => b - a);
    process.stdout.write(
      `\nanalysis: ${derived.toLocaleString('en-US')} derived edges, ${result?.tierZero ?? 0} nodes in Tier Zero, ${((result?.ms ?? 0) / 1000).toFixed(1)} s\n` +
        (kinds.length ? table(['derived edge', 'count'], kinds) : ''),
    );
  }
}

export async function ingestCommand(paths: string[], opts: { analysis: boolean; wait?: boolean; json?: boolean }): Promise<void> {
  // Users, computers, then groups: fewer placeholder nodes to rewrite (ingest/collection-order.ts).
  const files = inCollectionOrder(collectorFiles(paths), (f) => fileType(f));
  const json = !!opts.json;
  const failed = await withServices(async (s) => {
    // The pipeline's mutex: a running server never writes the graph while this does (busy → exit 1, or --wait).
    const { rows, failed } = await s.datapipe.withIngestLock(() => ingestFiles(s, files, json), { wait: opts.wait });
    if (!json) process.stdout.write(fileTable(rows));
    if (opts.analysis) await analyse(s, 'gas ingest', json);
    return failed;
  });
  if (failed) process.exitCode = 1;
}

export async function analyzeCommand(opts: { json?: boolean }): Promise<void> {
  await withServices((s) => analyse(s, 'gas analyze', !!opts.json));
}

/** `gas generate`'s options, as commander parses them. */
export interface GenerateFlags {
  tier?: keyof typeof TIERS;
  users?: number;
  out: string;
  seed: number;
  aces?: number;
  azureUsers?: number;
  json?: boolean;
}

export async function generateCommand(opts: GenerateFlags): Promise<void> {
  const preset = opts.tier ? TIERS[opts.tier] : undefined;
  const users = opts.users ?? preset?.users;
  if (users === undefined) throw new UsageError('give the size: --tier <S|M|L> or --users <n>');
  if (fs.existsSync(opts.out) && !fs.statSync(opts.out).isDirectory()) throw new UsageError(`--out ${opts.out}: not a directory`);
  try {
    fs.mkdirSync(opts.out, { recursive: true });
    fs.accessSync(opts.out, fs.constants.W_OK);
  } catch (err) {
    throw new UsageError(
      `--out ${opts.out}: ${(err as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied' : (err as Error).message}`,
    );
  }
  const azureUsers = opts.azureUsers ?? preset?.azureUsers;
  const bar = new Progress('generate', 'objects', { json: opts.json });
  // The total is what the generators plan (their main objects): close, and never passed (the bar stops at 100 %).
  const total = plannedSharpHoundObjects(users) + (azureUsers ? plannedAzureHoundObjects(azureUsers) : 0);
  bar.start(total);
  let before = 0;
  const progress = (p: { file: string; objects: number }) =>
    bar.update({ done: before + p.objects, total: Math.max(total, before + p.objects), detail: path.basename(p.file) });
  const ad = generateSharpHound(opts.out, { users, seed: opts.seed, acesPerObject: opts.aces ?? preset?.acesPerObject, progress });
  before = ad.objects;
  const az = azureUsers ? generateAzureHound(opts.out, { users: azureUsers, seed: opts.seed, progress }) : undefined;
  const out = { files: [...ad.files, ...(az?.files ?? [])], objects: ad.objects + (az?.objects ?? 0), bytes: ad.bytes + (az?.bytes ?? 0) };
  bar.end(`${out.files.length} files, ${out.objects.toLocaleString('en-US')} objects, ${(out.bytes / 1e6).toFixed(1)} MB`);
  if (opts.json) printJson(out);
  else process.stdout.write(`${out.files.join('\n')}\n`);
}
