import { faultDbBench } from './fault-db';
import { analysisAzureBench } from './analysis-azure';
import { analysisBench } from './analysis';
import { cypherBench } from './cypher';
import { graphDataBench } from './graph-data';
import { floodBench } from './flood';
import { fuzz } from './fuzz';
import { httpGraphBench } from './http-graph';
import { httpOverhead } from './http-overhead';
import { ingestBench } from './ingest';
import { ingestWorstCaseBench } from './ingest-worst-case';
import { pathsBench } from './paths';
import { webAppBench } from './web-app';

/**
 * `npm run bench [name…] [-- --smoke]`: runs the named benchmarks (all by default) and prints one JSON object per
 * benchmark. `--smoke` (or BENCH_SMOKE=1) makes each one tiny: CI runs them to prove they still work, no timings.
 */
const BENCHES: Record<string, () => Promise<Record<string, unknown>>> = {
  'http-overhead': httpOverhead,
  'http-graph': httpGraphBench,
  paths: pathsBench,
  cypher: cypherBench,
  ingest: ingestBench,
  'fault-db': faultDbBench,
  flood: floodBench,
  'analysis-azure': analysisAzureBench,
  analysis: analysisBench,
  'graph-data': graphDataBench,
  'ingest-worst-case': ingestWorstCaseBench,
  'web-app': webAppBench,
  fuzz,
};

// Smoke sizes for the benchmarks that read their size from the environment (the others check `smoke`).
const SMOKE_SIZES: Record<string, string> = {
  BENCH_USERS: '200',
  BENCH_AZ_PRINCIPALS: '200',
  BENCH_NODES: '2000',
  BENCH_EDGES: '20000',
  FLOOD_SECONDS: '2',
  FUZZ_REQUESTS: '200',
  BENCH_WORST_ACES: '2000',
};

/**
 * Benchmarks that cannot run on the embedded store today: fault-db's TCP proxy cannot front the in-memory PGlite
 * (its server child exits with "database not reachable"). Skipped, and said so, in an embedded smoke run.
 */
const NEEDS_SERVER = new Set(['fault-db']);

async function main() {
  if (process.argv.includes('--smoke')) process.env.BENCH_SMOKE = '1';
  if (process.env.BENCH_SMOKE === '1') for (const [k, v] of Object.entries(SMOKE_SIZES)) process.env[k] ??= v;
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const names = wanted.length ? wanted : Object.keys(BENCHES);
  for (const name of names) {
    const bench = BENCHES[name];
    if (!bench) throw new Error(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}`);
    if (process.env.BENCH_SMOKE === '1' && !process.env.BENCH_DATABASE_URL && NEEDS_SERVER.has(name)) {
      process.stdout.write(JSON.stringify({ bench: name, skipped: 'needs BENCH_DATABASE_URL (PostgreSQL)' }) + '\n');
      continue;
    }
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
