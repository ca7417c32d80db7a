import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS_DIR } from '../../src/db/migrate';

/**
 * Diagnosis, not a benchmark: how the ingest benchmark's PGlite baseline (a plain COPY into graph_edges of a fresh
 * in-memory PGlite, in one transaction) grows with the rows. Migrates an in-memory PGlite, then COPYs PROBE_ROWS
 * synthetic edges (distinct start, kind, end; empty properties) in one blob, or in blobs of PROBE_SLICE rows, and
 * prints the time. PROBE_DIR=<dir>: PGlite keeps its files in a new directory under it, on disk, as `gas serve` does.
 *
 *   PROBE_ROWS=400000 node --import tsx bench/probes/pglite-copy-growth.ts
 *   PROBE_ROWS=400000 PROBE_SLICE=50000 node --import tsx bench/probes/pglite-copy-growth.ts
 *   PROBE_ROWS=1200000 PROBE_DIR=/tmp node --import tsx bench/probes/pglite-copy-growth.ts
 *
 * In memory the growth is PGlite's file system: PostgreSQL extends a table or index by several pages at once with
 * fallocate, which the in-memory file system carries out as a truncate to the new size into a new array, copying
 * the whole file each time (`--cpu-prof`: resizeFileStorage under ___syscall_fallocate, 16 % of a 1.2 M-row COPY).
 */
async function main(): Promise<void> {
  const rowsWanted = Number(process.env.PROBE_ROWS ?? 400_000);
  const slice = Number(process.env.PROBE_SLICE ?? 0) || rowsWanted;
  const dataDir = process.env.PROBE_DIR ? fs.mkdtempSync(path.join(process.env.PROBE_DIR, 'pglite-growth-')) : undefined;
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  for (const m of fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((x) => /^\d{4}_[a-z0-9_]+\.sql$/.test(x))
    .sort())
    await db.exec(fs.readFileSync(path.join(MIGRATIONS_DIR, m), 'utf8'));
  // (start, kind) is unique per row below 2 M rows, so no row meets the unique index twice.
  const rows: string[] = [];
  for (let i = 0; i < rowsWanted; i++)
    rows.push(`${(i % 100_000) + 1}\t${((i * 7919) % 100_000) + 1}\t${1 + (Math.floor(i / 100_000) % 20)}\t{}\n`);
  const started = Date.now();
  await db.exec('begin');
  for (let i = 0; i < rowsWanted; i += slice)
    await db.query(`copy graph_edges (start_id, end_id, kind_id, properties) from '/dev/blob'`, [], {
      blob: new Blob([rows.slice(i, i + slice).join('')]),
    });
  await db.exec('commit');
  process.stdout.write(JSON.stringify({ rows: rowsWanted, slice, on: dataDir ? 'disk' : 'memory', ms: Date.now() - started }) + '\n');
  await db.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
