import { faultDbBench } from './fault-db';
import { analysisAzureBench } from './analysis-azure';
import { analysisBench } from './analysis';
import { httpGraphBench } from './http-graph';
import { httpOverhead } from './http-overhead';
import { ingestBench } from './ingest';
import { pathsBench } from './paths';

/**
 * `npm run bench [name…] [-- --smoke]`: runs the named benchmarks (all by default) and prints one JSON object per
 * benchmark. `--smoke` (or BENCH_SMOKE=1) makes each one tiny: CI runs them to prove they still work, no timings.
 */
const BENCHES: Record<string, () => Promise<Record<string, unknown>>> = {
  'http-overhead': httpOverhead,
  'http-graph': httpGraphBench,
  paths: pathsBench,
  ingest: ingestBench,
  'fault-db': faultDbBench,
  'analysis-azure': analysisAzureBench,
  analysis: analysisBench,
};

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const names = wanted.length ? wanted : Object.keys(BENCHES);
  for (const name of names) {
    const bench = BENCHES[name];
    if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    const started = Date.now();
    const result = await bench();
    process.stdout.write(JSON.stringify({ bench: name, seconds: (Date.now() - started) / 1000, ...result }) + '\n');
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
