import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from '../../src/db/pool';
import { migrate } from '../../src/db/migrate';
import { PgGraphStore } from '../../src/graph/pg/store';
import { ingestPath } from '../../src/ingest/ingest-path';
import { createLogger } from '../../src/logger';
import { peakRssMb } from '../stats';

/**
 * Diagnosis, not a benchmark: how much heap a conversion worker needs for collector files built to be as hostile
 * as the default size bounds allow (each item < 32 MiB, each string < 1 MiB, batches of 64 MiB of input), and what
 * the whole process peaks at. Writes four files into PROBE_DIR (once), then ingests each in its own child process
 * (so its peak RSS is its own) into a fresh schema of BENCH_DATABASE_URL with the worker's heap capped at each of
 * PROBE_HEAPS (MiB), and prints one line per file and cap: ingested or refused, time, peak RSS.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_ingest PROBE_DIR=/tmp/hostile PROBE_HEAPS=384,1024 \
 *     node --import tsx bench/probes/conversion-heap.ts
 *
 * PROBE_SCALE (default 1) shrinks every file's items and their lengths alike: the smoke run (`npm run bench --
 * --smoke`) uses 0.01 to prove the probe still runs.
 */

const SID = 'S-1-5-21-1-2-3';
const user = (id: number, props: string) =>
  `{"ObjectIdentifier":"${SID}-${id}","Properties":{"domain":"TEST.LOCAL","name":"U${id}@TEST.LOCAL"${props}},"Aces":[],"AllowedToDelegate":[],"SPNTargets":[],"HasSIDHistory":[],"IsDeleted":false,"IsACLProtected":false}`;
const group = (id: number, members: string, aces: string) =>
  `{"ObjectIdentifier":"${SID}-${id}","Properties":{"domain":"TEST.LOCAL","name":"G${id}@TEST.LOCAL"},"Members":[${members}],"Aces":[${aces}],"IsDeleted":false,"IsACLProtected":false}`;
const SCALE = Number(process.env.PROBE_SCALE ?? 1);
const scaled = (n: number) => Math.max(1, Math.round(n * SCALE));
const repeat = (n: number, f: (k: number) => string) => Array.from({ length: scaled(n) }, (_, k) => f(k)).join(',');

/** Each file data-first, as SharpHound writes them. */
const FILES: Record<string, { type: string; count: number; item: (i: number) => string }> = {
  // Many short properties: the most memory per input byte (a hash table entry each). ~140 MB.
  wide: { type: 'users', count: 400, item: (i) => user(100_000 + i, ',' + repeat(25_000, (k) => `"p${k}":${k}`)) },
  // ~280,000 ACEs per item (~31 MB, under the item bound). ~120 MB.
  aces: {
    type: 'groups',
    count: 4,
    item: (i) =>
      group(
        900_000 + i,
        '',
        repeat(280_000, (k) => `{"PrincipalSID":"${SID}-${k}","PrincipalType":"User","RightName":"GenericAll","IsInherited":false}`),
      ),
  },
  // One string of just under 1 MiB per user. ~155 MB.
  strings: { type: 'users', count: 150, item: (i) => user(200_000 + i, `,"description":"${'x'.repeat(scaled(1024 * 1024 - 100))}"`) },
  // ~500,000 members per group (~31 MB). ~130 MB.
  members: {
    type: 'groups',
    count: 4,
    item: (i) =>
      group(
        800_000 + i,
        repeat(500_000, (k) => `{"ObjectIdentifier":"${SID}-${k}","ObjectType":"User"}`),
        '',
      ),
  },
};

function writeFiles(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, f] of Object.entries(FILES)) {
    const file = path.join(dir, `${name}.json`);
    if (fs.existsSync(file)) continue;
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, '{"data":[');
    const count = scaled(f.count);
    for (let i = 0; i < count; i++) fs.writeSync(fd, (i ? ',' : '') + f.item(i));
    fs.writeSync(fd, `],"meta":{"type":"${f.type}","version":6,"count":${count},"methods":0}}`);
    fs.closeSync(fd);
  }
}

async function child(url: string, heapMb: number, file: string): Promise<void> {
  const log = createLogger('silent');
  const schema = `heap_${process.pid}`;
  const admin = new Database(url, { log });
  await admin.query(`create schema ${schema}`);
  const db = new Database(url, { log, searchPath: schema });
  try {
    await migrate(db, log);
    const started = Date.now();
    const r = await ingestPath(new PgGraphStore(db), file, { limits: { conversionHeapMb: heapMb } });
    const line = {
      file: path.basename(file),
      mb: Math.round(fs.statSync(file).size / 1e6),
      heap_cap_mb: heapMb,
      ingested: r.errors.length === 0,
      refusal: r.errors[0]?.message,
      ms: Date.now() - started,
      peak_rss_mb: peakRssMb(),
    };
    console.log(JSON.stringify(line));
  } finally {
    await db.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.close();
  }
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === 'child') return child(args[0]!, Number(args[1]), args[2]!);
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL is required (a PostgreSQL server)');
  const dir = process.env.PROBE_DIR ?? '/tmp/hostile';
  const heaps = (process.env.PROBE_HEAPS ?? '1024').split(',').map(Number);
  writeFiles(dir);
  for (const heap of heaps) {
    for (const name of Object.keys(FILES)) {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', __filename, 'child', url, String(heap), path.join(dir, `${name}.json`)],
        {
          encoding: 'utf8',
        },
      );
      process.stdout.write(out);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
