import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { median } from '../stats';
import { tierFiles } from './tier-files';

/**
 * What a change to the conversion worker's code is worth, without the database: two checkouts read, convert, merge
 * and encode the same files as the worker does (chunks of 64 KiB, batches as `full()` says, `prepareBatch` on each)
 * in child processes, A and B at the same time on a core each, and report each side's CPU. An ingest's wall time on two shared cores
 * moves by a fifth between runs here; this CPU figure is what the worker adds to the server's competition for them.
 *
 *   PROBE_DIR=/tmp/tierM PROBE_A_ROOT=/tmp/wt-before PROBE_ROUNDS=5 node --import tsx bench/probes/convert-ab.ts
 *
 * PROBE_DIGEST=1 adds a hash of every batch to each side's line (equal hashes: the same batches).
 * PROBE_A_ROOT / PROBE_B_ROOT: the checkouts (B defaults to this one); the children run with the young generation
 * the worker is given (`YOUNG_MB` in convert-in-worker.ts: 96 MiB, three semi-spaces of 32).
 */
const CHUNK = 64 * 1024;

interface Run {
  cpu_ms: number;
  ms: number;
  rows: number;
  batches: number;
  digest?: string;
}

async function child(root: string, files: string[]): Promise<void> {
  // The checkout's own modules, loaded through tsx's require hook.
  const { CollectorReader } = require(
    path.join(root, 'src/ingest/collector-reader.ts'),
  ) as typeof import('../../src/ingest/collector-reader');
  const { prepareBatch } = require(path.join(root, 'src/graph/prepared.ts')) as typeof import('../../src/graph/prepared');
  const { DEFAULT_LIMITS } = require(path.join(root, 'src/ingest/ingest-types.ts')) as typeof import('../../src/ingest/ingest-types');
  const { tailMeta } = require(path.join(root, 'src/ingest/tail-meta.ts')) as typeof import('../../src/ingest/tail-meta');
  const texts = files.map((f) => fs.readFileSync(f));
  // As ingestPath reads a file: its meta from its end first, so a data-first file's items need no spool.
  const hints = files.map((f) => tailMeta(f));
  let rows = 0;
  let batches = 0;
  // PROBE_DIGEST=1: a hash of every batch, to show both sides prepare the same ones (its cost blurs the CPU figure).
  const digest = process.env.PROBE_DIGEST ? createHash('sha256') : undefined;
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const [i, text] of texts.entries()) {
    const reader = new CollectorReader(path.basename(files[i]!), DEFAULT_LIMITS, '2026-11-28T00:00:00Z', hints[i]);
    const flush = async () => {
      if (!reader.pending()) return;
      const taken = reader.takeRows();
      const batch = await prepareBatch(taken.nodes, taken.edges);
      rows += batch.nodes.reduce((n, s) => n + s.objectids.length, 0) + batch.edges.reduce((n, s) => n + s.start.length, 0);
      batches++;
      if (digest) {
        digest.update(JSON.stringify(batch.kinds));
        for (const n of batch.nodes) digest.update(JSON.stringify(n));
        for (const e of batch.edges) {
          digest.update(JSON.stringify([e.endpoints, e.propTexts]));
          for (const a of [e.start, e.end, e.kind, e.props]) digest.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
        }
      }
    };
    for (let at = 0; at < text.length; at += CHUNK) {
      reader.push(text.subarray(at, at + CHUNK));
      if (reader.spooled) await reader.drain(flush);
      if (reader.full()) await flush();
    }
    reader.splitter.end();
    reader.checkComplete();
    await reader.drain(flush);
    // Checkouts from before the edges held to a file's end have no release().
    if ('release' in reader) await (reader as { release(f: () => Promise<void>): Promise<void> }).release(flush);
    await flush();
    reader.dispose();
  }
  const used = process.cpuUsage(cpu);
  const run: Run = {
    cpu_ms: Math.round((used.user + used.system) / 1000),
    ms: Math.round(performance.now() - started),
    rows,
    batches,
    digest: digest?.digest('hex').slice(0, 16),
  };
  process.stdout.write(JSON.stringify(run));
}

function run(root: string, files: string[], cpu: number): Promise<Run> {
  return new Promise((resolve, reject) =>
    execFile(
      'taskset',
      ['-c', String(cpu), process.execPath, '--max-semi-space-size=32', '--import', 'tsx', __filename, 'child', root, ...files],
      { cwd: root, maxBuffer: 1 << 20 },
      (err, out, stderr) => (err ? reject(new Error(`${root}: ${err.message}\n${stderr}`)) : resolve(JSON.parse(out) as Run)),
    ),
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === 'child') return child(process.argv[3]!, process.argv.slice(4));
  const dir = process.env.PROBE_DIR ?? '/tmp/tierM';
  const files = tierFiles(dir).map(([, file]) => file);
  if (!files.length) throw new Error(`${dir}: no collector files (gas generate --tier M --out ${dir})`);
  const roots = {
    A: path.resolve(process.env.PROBE_A_ROOT ?? ''),
    B: path.resolve(process.env.PROBE_B_ROOT ?? path.join(__dirname, '../..')),
  };
  if (!process.env.PROBE_A_ROOT) throw new Error('PROBE_A_ROOT: the checkout to compare with');
  const runs: Record<'A' | 'B', Run[]> = { A: [], B: [] };
  const ratios: number[] = [];
  const rounds = Number(process.env.PROBE_ROUNDS ?? 5);
  for (let round = 0; round < rounds; round++) {
    // Both sides at once, one per core, swapping cores every round: a change in the machine's speed (it moves by
    // half between runs here) falls on both alike.
    const [a, b] = await Promise.all([run(roots.A, files, round % 2), run(roots.B, files, 1 - (round % 2))]);
    runs.A.push(a);
    runs.B.push(b);
    console.error(JSON.stringify({ round, A: a, B: b }));
    ratios.push(b.cpu_ms / a.cpu_ms);
  }
  const summary = (rs: Run[]) => ({
    cpu_ms: median(rs.map((r) => r.cpu_ms)),
    ms: median(rs.map((r) => r.ms)),
    rows: rs[0]!.rows,
    batches: rs[0]!.batches,
  });
  console.log(
    JSON.stringify(
      {
        files: files.length,
        rounds,
        A: { root: roots.A, ...summary(runs.A) },
        B: { root: roots.B, ...summary(runs.B) },
        b_over_a_cpu_pairs: ratios.map((x) => Number(x.toFixed(3))),
        b_over_a_cpu_median: Number(median(ratios).toFixed(3)),
        b_lower_in: ratios.filter((x) => x < 1).length,
      },
      null,
      1,
    ),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
