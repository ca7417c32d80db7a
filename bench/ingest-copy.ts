import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { Database } from '../src/db/pool';
import { copyText } from '../src/graph/pg/bulk';
import { backendCpuMs, ownCpuMs } from './stats';

/**
 * The ceiling the ingest benchmark compares with: a plain COPY of exactly the node and edge rows an ingest
 * produced, into the same tables with the same indexes (fresh migrations), with no parsing, merging or look-ups.
 */

const PAGE = 50_000;

/** Writes the graph's kind, node and edge rows as COPY text files (keyset pages: memory stays flat). */
export async function dumpGraph(db: Database, dir: string): Promise<{ kinds: string; nodes: string; edges: string; rows: number }> {
  const files = { kinds: path.join(dir, 'kinds.copy'), nodes: path.join(dir, 'nodes.copy'), edges: path.join(dir, 'edges.copy') };
  const kinds = await db.query<{ id: number; name: string }>('select id, name from graph_kinds order by id');
  fs.writeFileSync(files.kinds, kinds.map((k) => `${k.id}\t${copyText(k.name)}\n`).join(''));
  let rows = 0;
  for (const [table, file, cols] of [
    ['graph_nodes', files.nodes, 'id, objectid, kind_ids::text as k, properties::text as p'],
    ['graph_edges', files.edges, 'id, start_id, end_id, kind_id, properties::text as p'],
  ] as const) {
    const fd = fs.openSync(file, 'w');
    let last = 0;
    for (;;) {
      const page = await db.query<Record<string, string | number>>(`select ${cols} from ${table} where id > $1 order by id limit $2`, [
        last,
        PAGE,
      ]);
      if (!page.length) break;
      fs.writeSync(
        fd,
        page
          .map((r) =>
            table === 'graph_nodes'
              ? `${r.id}\t${copyText(String(r.objectid))}\t${r.k}\t${copyText(String(r.p))}\n`
              : `${r.id}\t${r.start_id}\t${r.end_id}\t${r.kind_id}\t${copyText(String(r.p))}\n`,
          )
          .join(''),
      );
      last = Number(page[page.length - 1]!.id);
      rows += page.length;
    }
    fs.closeSync(fd);
  }
  return { ...files, rows };
}

const COPIES = (f: { kinds: string; nodes: string; edges: string }) =>
  [
    ['graph_kinds (id, name)', f.kinds],
    ['graph_nodes (id, objectid, kind_ids, properties)', f.nodes],
    ['graph_edges (id, start_id, end_id, kind_id, properties)', f.edges],
  ] as const;

/** What a COPY run took: wall time, and CPU of the server (its backend, when local) and of this process. */
export interface CopyTimes {
  ms: number;
  serverCpuMs?: number;
  cpuMs: number;
}

/**
 * COPY into a migrated schema (`url` sets its search_path) of the server the ingest wrote to: the PostgreSQL
 * server, or the same embedded cluster, so both sides pay the same fsync, WAL and index upkeep.
 */
export async function copyInto(url: string, f: { kinds: string; nodes: string; edges: string }): Promise<CopyTimes> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const backend = backendCpuMs(pid);
    const cpu = ownCpuMs();
    const started = Date.now();
    await client.query('begin');
    for (const [target, file] of COPIES(f))
      await pipeline(fs.createReadStream(file), client.query(copyStreams.from(`copy ${target} from stdin`)));
    await client.query('commit');
    const ms = Date.now() - started;
    const backendEnded = backendCpuMs(pid);
    const serverCpuMs = backend !== undefined && backendEnded !== undefined ? backendEnded - backend : undefined;
    return { ms, serverCpuMs, cpuMs: Math.round(ownCpuMs() - cpu) };
  } finally {
    await client.end();
  }
}
