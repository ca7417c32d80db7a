import fs from 'node:fs';
import { Database } from '../src/db/pool';
import { PgGraphStore } from '../src/graph/pg/store';
import { ingestPath } from '../src/ingest/ingest-path';
import { SharpHoundConverter } from '../src/ingest/sharphound';
import { createLogger } from '../src/logger';

/**
 * One side of the ingest benchmark, alone in its process so its peak RSS is its own:
 *   parse  <files…>        the whole-file approach: read, JSON.parse, convert every object (no database)
 *   ingest <url> <files…>  our streaming ingest into the database at <url>
 */
async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  const started = Date.now();
  let objects = 0;
  let edges = 0;
  if (mode === 'parse') {
    const convert = new SharpHoundConverter(new Date().toISOString());
    for (const f of rest) {
      const doc = JSON.parse(fs.readFileSync(f, 'utf8'));
      for (const item of doc.data) {
        edges += convert.convert(doc.meta.type, item).edges.length;
        objects++;
      }
    }
  } else {
    const [url, ...files] = rest;
    const db = new Database(url!, { log: createLogger('silent') });
    const store = new PgGraphStore(db);
    for (const f of files) {
      const r = await ingestPath(store, f);
      if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('; '));
      for (const x of r.files) {
        objects += x.objects;
        edges += x.edges;
      }
    }
    await db.close();
  }
  const ms = Date.now() - started;
  process.stdout.write(JSON.stringify({ ms, objects, edges, max_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) }) + '\n');
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
