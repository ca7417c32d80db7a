import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSharpHound } from '../src/generate/sharphound';
import { benchDatabase, ratio } from './harness';
import { copyIntoPglite, copyIntoServer, dumpGraph } from './ingest-copy';

function child(args: string[]): Promise<{ ms: number; objects: number; edges: number; max_rss_mb: number }> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'ingest-child.ts'), ...args],
      { maxBuffer: 1 << 20 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    ),
  );
}

/**
 * Streaming ingest of generated SharpHound files (BENCH_USERS users, default 20000; 100000 gives a users.json of
 * about 110 MB) against the whole-file approach (read + JSON.parse + convert, no database) on the same files:
 * throughput and, above all, peak memory of each, measured in separate processes.
 */
export async function ingestBench(): Promise<Record<string, unknown>> {
  const users = Number(process.env.BENCH_USERS ?? 20_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-bench-'));
  const store = await benchDatabase();
  try {
    const gen = generateSharpHound(dir, { users, seed: 7 });
    const usersFile = path.join(dir, 'users.json');
    const ordered = ['domains', 'ous', 'gpos', 'groups', 'users', 'computers'].map((t) => path.join(dir, `${t}.json`));
    const baseline = await child(['parse', ...ordered]);
    const ours = await child(['ingest', store.url, ...ordered]);
    // The ceiling: COPY of exactly the rows the ingest produced, into fresh tables with the same indexes.
    const dump = await dumpGraph(store.db, dir);
    let copyMs: number;
    if (store.kind === 'postgres') {
      const target = await benchDatabase('_copy');
      try {
        copyMs = await copyIntoServer(target.url, dump);
      } finally {
        await target.close();
      }
    } else copyMs = await copyIntoPglite(dump);
    const counts = await store.db.query<{ nodes: number; edges: number }>(
      'select (select count(*) from graph_nodes)::int as nodes, (select count(*) from graph_edges)::int as edges',
    );
    return {
      storage: store.kind,
      users,
      files_mb: Math.round(gen.bytes / 1e6),
      largest_file_mb: Math.round(fs.statSync(usersFile).size / 1e6),
      objects: ours.objects,
      edges_written: ours.edges,
      baseline_parse_whole_files: { ...baseline, objects_per_s: Math.round(baseline.objects / (baseline.ms / 1000)) },
      ours_streaming_ingest: {
        ...ours,
        objects_per_s: Math.round(ours.objects / (ours.ms / 1000)),
        edges_per_s: Math.round(ours.edges / (ours.ms / 1000)),
      },
      graph_rows: counts[0],
      baseline_plain_copy: { ms: copyMs, rows_per_s: Math.round(dump.rows / (copyMs / 1000)) },
      ratio_to_copy: ratio(copyMs, ours.ms),
      ratio_peak_rss: ratio(ours.max_rss_mb, baseline.max_rss_mb),
      ratio_throughput_vs_parse: ratio(baseline.ms, ours.ms),
    };
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
