import { Database } from '../src/db/pool';
import { PgGraphStore } from '../src/graph/pg/store';
import { ingestPath } from '../src/ingest/ingest-path';
import { createLogger } from '../src/logger';
import { peakRssMb } from './stats';

/** One worst-case input, alone in its process so its peak RSS is its own: `ingest-worst-child <url> <file>`. */
async function main() {
  const [url, file] = process.argv.slice(2);
  const started = Date.now();
  const db = new Database(url!, { log: createLogger('silent') });
  const r = await ingestPath(new PgGraphStore(db), file!);
  await db.close();
  process.stdout.write(
    JSON.stringify({
      ms: Date.now() - started,
      objects: r.files.reduce((n, f) => n + f.objects, 0),
      edges: r.files.reduce((n, f) => n + f.edges, 0),
      refused: r.errors.map((e) => e.message.slice(0, 160)),
      max_rss_mb: peakRssMb(),
    }) + '\n',
  );
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
