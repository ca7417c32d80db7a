import { execFile } from 'node:child_process';
import path from 'node:path';
import { benchDatabase } from '../harness';
import { median } from '../stats';
import { tierFiles } from './tier-files';

/**
 * Two ingests of the same files side by side, alternating A, B, A, B… so that a drift of the machine (another
 * process, the page cache, autovacuum) falls on both sides alike: what a one-sided change to the ingest or to node's
 * flags is worth, in wall time, the child's CPU and its PostgreSQL backend's CPU. Each ingest goes into fresh tables.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_ingest PROBE_DIR=/tmp/tierM \
 *     PROBE_B_ARGS=--no-allocation-site-pretenuring node --import tsx bench/probes/ingest-ab.ts
 *
 * PROBE_A_ARGS / PROBE_B_ARGS: node flags of each side; PROBE_A_ROOT / PROBE_B_ROOT: the checkout whose
 * bench/ingest-child.ts each side runs (a `git worktree` of an earlier revision for a before/after); PROBE_ROUNDS
 * (3) pairs; PROBE_A_ORDER / PROBE_B_ORDER: the order each side ingests the files in (see orderOf); PROBE_TOGETHER=1 runs each pair at the same time; PROBE_DIR: the files of `gas generate --tier M --out DIR`. Without BENCH_DATABASE_URL both sides ingest
 * into embedded PGlite, whose CPU is then this process's and is not reported.
 */
interface Side {
  name: string;
  args: string[];
  root: string;
}

interface Run {
  ms: number;
  cpu_ms: number;
  server_cpu_ms?: number;
  max_rss_mb: number;
}

function side(name: string): Side {
  const env = (k: string) => process.env[`PROBE_${name}_${k}`];
  return { name, args: (env('ARGS') ?? '').split(' ').filter(Boolean), root: path.resolve(env('ROOT') ?? path.join(__dirname, '../..')) };
}

function ingest(s: Side, url: string, files: string[]): Promise<Run> {
  const script = path.join(s.root, 'bench/ingest-child.ts');
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [...s.args, '--import', 'tsx', script, 'ingest', url, ...files],
      // A side given an order keeps it (the child would otherwise take the files as a collection: users first).
      {
        cwd: s.root,
        maxBuffer: 1 << 20,
        env: { ...process.env, ...(process.env[`PROBE_${s.name}_ORDER`] ? { BENCH_FILE_ORDER: 'given' } : {}) },
      },
      (err, out, stderr) => (err ? reject(new Error(`side ${s.name}: ${err.message}\n${stderr}`)) : resolve(JSON.parse(out))),
    ),
  );
}

/**
 * Side `name`'s files: in PROBE_<name>_ORDER's order when given (file names without `.json`, comma-separated; the
 * files it leaves out follow in the usual order), else in the usual one.
 */
function orderOf(name: string, files: string[]): string[] {
  const order = process.env[`PROBE_${name}_ORDER`]?.split(',') ?? [];
  const rank = (f: string) => {
    const i = order.indexOf(path.basename(f, '.json'));
    return i < 0 ? order.length : i;
  };
  return [...files].sort((x, y) => rank(x) - rank(y));
}

async function main(): Promise<void> {
  const dir = process.env.PROBE_DIR ?? '/tmp/tierM';
  const files = tierFiles(dir).map(([, file]) => file);
  if (!files.length) throw new Error(`${dir}: no collector files (gas generate --tier M --out ${dir})`);
  const sides = [side('A'), side('B')];
  const runs: Record<string, Run[]> = { A: [], B: [] };
  const rounds = Number(process.env.PROBE_ROUNDS ?? 3);
  const together = process.env.PROBE_TOGETHER === '1';
  const one = async (s: Side, round: number) => {
    const target = await benchDatabase(`_ab${s.name.toLowerCase()}${round}`);
    try {
      const r = await ingest(s, target.url, orderOf(s.name, files));
      runs[s.name]!.push(r);
      console.error(JSON.stringify({ round, side: s.name, ...r }));
    } finally {
      await target.close();
    }
  };
  for (let round = 0; round < rounds; round++) {
    // Together: both ingests at once, so a change in the machine's speed falls on both alike (each then shares the
    // cores with the other's client and server too: compare their CPU, not their wall time with a lone ingest's).
    if (together) await Promise.all(sides.map((s) => one(s, round)));
    // Alternate which side goes first, so neither always follows the other's autovacuum.
    else for (const s of round % 2 ? [...sides].reverse() : sides) await one(s, round);
  }
  const summary = (s: Side) => {
    const rs = runs[s.name]!;
    const med = (f: (r: Run) => number | undefined) => {
      const xs = rs.map(f).filter((x): x is number => x !== undefined);
      return xs.length ? median(xs) : undefined;
    };
    return {
      args: s.args,
      root: s.root,
      ms: med((r) => r.ms),
      cpu_ms: med((r) => r.cpu_ms),
      server_cpu_ms: med((r) => r.server_cpu_ms),
      max_rss_mb: med((r) => r.max_rss_mb),
    };
  };
  const [a, b] = [summary(sides[0]!), summary(sides[1]!)];
  console.log(JSON.stringify({ files: files.length, rounds, A: a, B: b, b_over_a_ms: Number((b.ms! / a.ms!).toFixed(3)) }, null, 2));
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
