import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { median } from '../stats';

/**
 * The JSON splitter's scan alone, for two checkouts at once (a core each, swapping cores every round): every item's
 * text is found and taken unparsed, so the figure is the byte scanner's CPU and nothing else.
 *
 *   PROBE_FILE=/tmp/tierM/computers.json PROBE_A_ROOT=/tmp/wt-before PROBE_ROUNDS=5 \
 *     node --import tsx bench/probes/splitter-ab.ts
 */
const CHUNK = 64 * 1024;

function child(root: string, file: string): void {
  const { JsonItemSplitter } = require(path.join(root, 'src/ingest/json-stream.ts')) as typeof import('../../src/ingest/json-stream');
  const text = fs.readFileSync(file);
  let items = 0;
  const splitter = new JsonItemSplitter({ meta: () => undefined, item: () => undefined, itemText: () => (items++, true) });
  const cpu = process.cpuUsage();
  for (let at = 0; at < text.length; at += CHUNK) splitter.push(text.subarray(at, at + CHUNK));
  splitter.end();
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ cpu_ms: Math.round((used.user + used.system) / 1000), items, mb: Math.round(text.length / 1e6) }));
}

function run(root: string, file: string, cpu: number): Promise<{ cpu_ms: number; items: number }> {
  return new Promise((resolve, reject) =>
    execFile(
      'taskset',
      ['-c', String(cpu), process.execPath, '--import', 'tsx', __filename, 'child', root, file],
      { cwd: root },
      (err, out, stderr) => (err ? reject(new Error(`${root}: ${err.message}\n${stderr}`)) : resolve(JSON.parse(out))),
    ),
  );
}

async function main(): Promise<void> {
  if (process.argv[2] === 'child') return child(process.argv[3]!, process.argv[4]!);
  const file = process.env.PROBE_FILE ?? '/tmp/tierM/computers.json';
  if (!process.env.PROBE_A_ROOT) throw new Error('PROBE_A_ROOT: the checkout to compare with');
  const a = path.resolve(process.env.PROBE_A_ROOT);
  const b = path.resolve(process.env.PROBE_B_ROOT ?? path.join(__dirname, '../..'));
  const ratios: number[] = [];
  const ms: { A: number[]; B: number[] } = { A: [], B: [] };
  for (let round = 0; round < Number(process.env.PROBE_ROUNDS ?? 5); round++) {
    const [ra, rb] = await Promise.all([run(a, file, round % 2), run(b, file, 1 - (round % 2))]);
    if (ra.items !== rb.items) throw new Error(`the two sides found ${ra.items} and ${rb.items} items`);
    ms.A.push(ra.cpu_ms);
    ms.B.push(rb.cpu_ms);
    ratios.push(rb.cpu_ms / ra.cpu_ms);
    console.error(JSON.stringify({ round, A: ra, B: rb }));
  }
  console.log(
    JSON.stringify({
      file,
      A_cpu_ms: median(ms.A),
      B_cpu_ms: median(ms.B),
      b_over_a_pairs: ratios.map((x) => Number(x.toFixed(3))),
      b_over_a_median: Number(median(ratios).toFixed(3)),
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
