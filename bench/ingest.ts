import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateAzureHound } from '../src/generate/azurehound';
import { generateSharpHound } from '../src/generate/sharphound';
import { isTier, TIERS } from '../src/generate/tiers';
import { benchDatabase, ratio, type BenchStore } from './harness';
import { median } from './stats';
import { copyInto, dumpGraph, type CopyTimes } from './ingest-copy';

interface ChildResult {
  ms: number;
  objects: number;
  edges: number;
  max_rss_mb: number;
  /** CPU of the child process during the measured section. */
  cpu_ms: number;
  /** CPU of its PostgreSQL backend (a local server only). */
  server_cpu_ms?: number;
}

// BENCH_CHILD_NODE_ARGS: node flags for the children (e.g. --no-allocation-site-pretenuring, as `gas serve` runs).
const childNodeArgs = (process.env.BENCH_CHILD_NODE_ARGS ?? '').split(' ').filter(Boolean);

function child(args: string[]): Promise<ChildResult> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [...childNodeArgs, '--import', 'tsx', path.join(__dirname, 'ingest-child.ts'), ...args],
      { maxBuffer: 1 << 20 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    ),
  );
}

const perS = (n: number, ms: number) => Math.round(n / (ms / 1000));

/** Files up to this size are also read whole (V8 strings stop at ~512 MiB). */
const WHOLE_FILE_LIMIT = 400 * 1024 * 1024;

/** One ingest of the files into a fresh graph and, right after it, the COPY of the same rows: one ratio. */
interface Trial {
  ours: ChildResult;
  copy: CopyTimes;
  rows: number;
  ratio: number;
}

async function trial(files: string[], dir: string): Promise<Trial & { store: BenchStore }> {
  // Both sides write through a socket to the same server: the PostgreSQL server, or one embedded cluster started
  // here as `gas serve` starts it on DATA_DIR (the ingest child reaches it as `gas ingest` reaches a running one).
  const store = await benchDatabase();
  const ours = await child(['ingest', store.url, ...files]);
  // The ceiling: COPY of exactly the rows the ingest produced, into fresh tables with the same indexes.
  const dump = await dumpGraph(store.db, dir);
  const target = await store.sibling('_copy');
  let copy: CopyTimes;
  try {
    copy = await copyInto(target.url, dump);
  } finally {
    await target.drop();
  }
  return { ours, copy, rows: dump.rows, ratio: Number((copy.ms / ours.ms).toFixed(2)), store };
}

/**
 * Streaming ingest of generated collector files (`BENCH_TIER` S|M|L, or `BENCH_USERS` users of one domain without
 * Azure) into the database, measured in the same run against
 *  - the ceiling: a plain COPY of exactly the node and edge rows the ingest produced, into fresh tables with the
 *    same indexes (ratio_to_copy is COPY's time over ours: 1.0 would be as fast as COPY);
 *  - the whole-file approach (read + JSON.parse + convert, no database), for peak memory;
 * and then a full analysis run over the ingested graph (analysis time next to ingest time). Each side runs in its
 * own process, so each peak RSS is its own. With BENCH_TRIALS=n the ingest and its COPY run n times, alternating, each
 * into fresh tables, and the median trial's figures are reported with every trial's ratio.
 */
export async function ingestBench(): Promise<Record<string, unknown>> {
  const tierName = (process.env.BENCH_TIER ?? '').toUpperCase();
  const tier = isTier(tierName) ? TIERS[tierName] : undefined;
  const users = tier?.users ?? Number(process.env.BENCH_USERS ?? 20_000);
  // BENCH_TRIALS ingest-then-COPY pairs, each into fresh tables: on a machine whose speed moves by a third from one
  // minute to the next, one pair's ratio is not a figure; the median of several alternating pairs is.
  const trials = Math.max(1, Number(process.env.BENCH_TRIALS ?? 1));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-bench-'));
  let store: BenchStore | undefined;
  try {
    const gen = generateSharpHound(dir, { users, seed: 7, acesPerObject: tier?.acesPerObject });
    const az = tier ? generateAzureHound(dir, { users: tier.azureUsers, seed: 7 }) : undefined;
    const files = [...gen.files, ...(az?.files ?? [])];
    const largest = Math.max(...files.map((f) => fs.statSync(f).size));
    // The whole-file approach cannot read a file past V8's longest string (~512 MiB): at tier L it is not run.
    const wholeFiles = largest < WHOLE_FILE_LIMIT ? await child(['parse', ...files]) : undefined;
    const done: Trial[] = [];
    for (let i = 0; i < trials; i++) {
      await store?.close();
      store = undefined;
      const t = await trial(files, dir);
      store = t.store;
      done.push(t);
    }
    // The figures below are the median trial's (of an even number, the lower middle one); the last graph is analysed.
    const mid = [...done].sort((a, b) => a.ratio - b.ratio)[Math.floor((done.length - 1) / 2)]!;
    const { ours, copy } = mid;
    const copyMs = copy.ms;
    const last = store!;
    // CPU spent by both sides (client and server): what the work costs, whatever else shares the cores.
    const copyCpu = copy.serverCpuMs !== undefined ? copy.serverCpuMs + copy.cpuMs : undefined;
    const oursCpu = ours.server_cpu_ms !== undefined ? ours.server_cpu_ms + ours.cpu_ms : undefined;
    const counts = (
      await last.db.query<{ nodes: number; edges: number }>(
        'select (select count(*) from graph_nodes)::int as nodes, (select count(*) from graph_edges)::int as edges',
      )
    )[0]!;
    // A graph larger than the analysis child's heap is refused by analysis itself (tier L with Node's default heap:
    // run with NODE_OPTIONS=--max-old-space-size=12288); the ingest figures stand, and the refusal is reported.
    const analysis =
      process.env.BENCH_ANALYSIS === '0'
        ? undefined
        : await child(['analyze', last.url]).catch((err: Error) => ({
            refused: /AppError: ([^\n]*)/.exec(err.message)?.[1] ?? err.message,
          }));
    return {
      storage: last.kind,
      tier: tier ? tierName : undefined,
      users,
      files_mb: Math.round((gen.bytes + (az?.bytes ?? 0)) / 1e6),
      largest_file_mb: Math.round(largest / 1e6),
      objects: ours.objects,
      edges_written: ours.edges,
      graph_rows: counts,
      baseline_parse_whole_files: wholeFiles
        ? { ms: wholeFiles.ms, max_rss_mb: wholeFiles.max_rss_mb }
        : { skipped: `the largest file is over ${WHOLE_FILE_LIMIT >> 20} MiB: one string cannot hold it` },
      baseline_plain_copy: { ms: copyMs, rows_per_s: perS(mid.rows, copyMs) },
      ours_streaming_ingest: {
        ms: ours.ms,
        objects_per_s: perS(ours.objects, ours.ms),
        edges_per_s: perS(ours.edges, ours.ms),
        graph_rows_per_s: perS(counts.nodes + counts.edges, ours.ms),
        max_rss_mb: ours.max_rss_mb,
      },
      ratio_to_copy: ratio(copyMs, ours.ms),
      ratio_to_copy_trials: done.length > 1 ? done.map((t) => t.ratio) : undefined,
      ratio_to_copy_median: done.length > 1 ? median(done.map((t) => t.ratio)) : undefined,
      trials_ms: done.length > 1 ? done.map((t) => ({ ours: t.ours.ms, copy: t.copy.ms })) : undefined,
      cpu: copyCpu &&
        oursCpu && {
          copy_ms: copyCpu,
          ours_ms: oursCpu,
          ours_client_ms: ours.cpu_ms,
          ours_server_ms: ours.server_cpu_ms,
          ratio_to_copy: ratio(copyCpu, oursCpu),
        },
      ratio_peak_rss_vs_whole_files: wholeFiles ? ratio(ours.max_rss_mb, wholeFiles.max_rss_mb) : undefined,
      analysis:
        analysis &&
        ('refused' in analysis
          ? analysis
          : {
              ms: analysis.ms,
              derived_edges: analysis.edges,
              max_rss_mb: analysis.max_rss_mb,
              ratio_to_ingest: ratio(analysis.ms, ours.ms),
            }),
    };
  } finally {
    await store?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
