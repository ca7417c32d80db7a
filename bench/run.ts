import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { attackBench } from './attack';
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
import { ingestLatencyBench } from './ingest-latency';
import { indexFreshnessBench } from './index-freshness';
import { ingestWorstCaseBench } from './ingest-worst-case';
import { pathsBench } from './paths';
import { startupBench } from './startup';
import { webAppBench } from './web-app';
import { prebuiltQueriesBench } from './prebuilt-queries';

/**
 * `npm run bench [name…] [-- --smoke]`: runs the named benchmarks (all by default) and prints one JSON object per
 * benchmark. `--smoke` (or BENCH_SMOKE=1) makes each one tiny: CI runs them to prove they still work, no timings.
 */
const BENCHES: Record<string, () => Promise<Record<string, unknown>>> = {
  'http-overhead': httpOverhead,
  'http-graph': httpGraphBench,
  paths: pathsBench,
  cypher: cypherBench,
  'prebuilt-queries': prebuiltQueriesBench,
  ingest: ingestBench,
  'ingest-latency': ingestLatencyBench,
  'index-freshness': indexFreshnessBench,
  'fault-db': faultDbBench,
  flood: floodBench,
  'analysis-azure': analysisAzureBench,
  analysis: analysisBench,
  'graph-data': graphDataBench,
  'ingest-worst-case': ingestWorstCaseBench,
  'web-app': webAppBench,
  startup: startupBench,
  fuzz,
  attack: attackBench,
};

/**
 * Probes the docs cite: scripts of their own, run in a child process as the docs show them (`node --import tsx
 * bench/probes/<name>.ts`) with the environment given, sized down in a smoke run. Their output becomes the result.
 */
interface Probe {
  env(smoke: boolean, tmp: string): Record<string, string>;
  needsServer?: boolean;
}
const PROBES: Record<string, Probe> = {
  'conversion-heap': {
    env: (smoke, tmp): Record<string, string> => (smoke ? { PROBE_SCALE: '0.01', PROBE_DIR: tmp } : {}),
    needsServer: true,
  },
};

function runProbe(name: string, probe: Probe, smoke: boolean): Promise<Record<string, unknown>> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `gas-${name}-`));
  const script = path.join(__dirname, 'probes', `${name}.ts`);
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', script],
      { env: { ...process.env, ...probe.env(smoke, tmp) }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`probe ${name} failed: ${err.message}\n${stderr.slice(-4000)}`));
        const text = stdout.trim();
        // One JSON document or one JSON object a line (conversion-heap).
        try {
          resolve({ result: JSON.parse(text) });
        } catch {
          resolve({ results: text.split('\n').map((l) => JSON.parse(l)) });
        }
      },
    );
  }).finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
}

// Smoke sizes for the benchmarks that read their size from the environment (the others check `smoke`).
const SMOKE_SIZES: Record<string, string> = {
  BENCH_USERS: '200',
  BENCH_AZ_PRINCIPALS: '200',
  BENCH_NODES: '2000',
  BENCH_EDGES: '20000',
  FLOOD_SECONDS: '2',
  FUZZ_REQUESTS: '200',
  BENCH_WORST_ACES: '2000',
  ATTACK_SECONDS: '3',
  ATTACK_CONNECTIONS: '20',
  ATTACK_GRAPHQL_SECONDS: '3',
  ATTACK_USERS: '200',
  ATTACK_BOMB_MIB: '64',
};

async function main() {
  if (process.argv.includes('--smoke')) process.env.BENCH_SMOKE = '1';
  if (process.env.BENCH_SMOKE === '1') for (const [k, v] of Object.entries(SMOKE_SIZES)) process.env[k] ??= v;
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const smoke = process.env.BENCH_SMOKE === '1';
  const known = [...Object.keys(BENCHES), ...Object.keys(PROBES)];
  const names = wanted.length ? wanted : known;
  for (const name of names) {
    const bench = BENCHES[name];
    const probe = PROBES[name];
    if (!bench && !probe) throw new Error(`unknown benchmark ${name}; known: ${known.join(', ')}`);
    const needsServer = probe?.needsServer;
    if (needsServer && !process.env.BENCH_DATABASE_URL) {
      process.stdout.write(JSON.stringify({ bench: name, skipped: 'needs BENCH_DATABASE_URL (PostgreSQL)' }) + '\n');
      continue;
    }
    const started = Date.now();
    const result = bench ? await bench() : await runProbe(name, probe!, smoke);
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
