import type { Database } from '../src/db/pool';

/**
 * BloodHound's PostgreSQL shortest-path harness (DAWGS, `drivers/pg/query/sql/schema_up.sql`:
 * `bidirectional_asp_harness` with the tables of `create_bidirectional_shortest_path_tables` and the fronts swapped
 * as `swap_forward_front` / `swap_backward_front` do), re-done over our tables for the paths benchmark.
 *
 * Per query, in one transaction, temporary tables (`on commit drop`) hold the path space: `forward_front`,
 * `backward_front` and `next_front` rows (root_id, next_id, depth, satisfied, is_cycle, path int8[]) carry the full
 * edge-id path of every frontier walk, and `forward_visited` / `backward_visited` (root_id, id) the nodes each side
 * has reached. Every level is one `insert into next_front select … from <front> join graph_edges …` that extends
 * every walk of the front by one edge; then the fronts are swapped by renaming, cycles, unsatisfiable rows, dead
 * ends and walks into nodes this side reached at an earlier level are deleted, and the front's nodes are marked
 * visited. The smaller front is expanded each time (forward first, then backward, as DAWGS does). At the first
 * level where a front reaches the other endpoint, or the two fronts share a node, the complete paths are built in
 * SQL (forward path || backward path; the backward side prepends edges, so its path is already in start-to-end
 * order) and sent to the client, as DAWGS returns them.
 *
 * Visited tracking is that of DAWGS' shortest-path harness (`_bidirectional_sp_harness`) without its
 * `distinct on (root_id, next_id)`, which keeps one walk per node and so one path: here every walk reaching a node
 * at its first level stays, so all shortest paths are found. With `visited: false` it is DAWGS' all-shortest-paths
 * harness as written, which has no visited tables: its fronts hold every edge-simple walk of their length.
 */
export async function sqlHarnessAllShortestPaths(
  db: Database,
  s: number,
  t: number,
  maxDepth: number,
  opts: { visited?: boolean } = {},
): Promise<{ length: number; paths: number; queries: number }> {
  const visited = opts.visited ?? true;
  if (s === t) return { length: 0, paths: 0, queries: 0 };
  return db.tx(async (q) => {
    let queries = 0;
    const run = async <R>(sql: string, params: readonly unknown[] = []): Promise<R[]> => {
      queries++;
      return q.query<R>(sql, params);
    };
    // Parameterless batches go as one simple-protocol message (pg sends a query without values that way, and it
    // may hold several statements): the housekeeping DAWGS runs inside its plpgsql loop costs one round trip here.
    const batch = async (statements: string[]): Promise<void> => {
      queries++;
      await q.execute(statements.join(';\n'));
    };

    await batch(CREATE_TABLES);
    let depthF = 0;
    let depthB = 0;
    let countF = 0;
    let countB = 0;
    while (depthF + depthB < maxDepth && (depthF === 0 || countF > 0) && (depthB === 0 || countB > 0)) {
      const forward = depthF === 0 || (depthB > 0 && countF <= countB);
      const side = forward ? SIDES.forward : SIDES.backward;
      const first = (forward ? depthF : depthB) === 0;
      // The expansion: one statement per level, every walk of the front extended by one edge.
      if (first) await run(side.primer, forward ? [s, t] : [t, s]);
      else await run(side.recursive, [forward ? t : s]);
      if (forward) depthF++;
      else depthB++;
      await batch(side.housekeeping(first, visited));
      const [front] = await run<{ n: number; hit: boolean }>(side.count);
      if (forward) countF = front!.n;
      else countB = front!.n;
      if (front!.hit) {
        // The front reached the other endpoint itself: its satisfied walks are the paths.
        const rows = await run<{ path: number[] }>(side.satisfied);
        return { length: forward ? depthF : depthB, paths: distinct(rows), queries };
      }
      if (depthF > 0 && depthB > 0) {
        const rows = await run<{ path: number[] }>(MEET);
        if (rows.length) return { length: depthF + depthB, paths: distinct(rows), queries };
      }
    }
    return { length: 0, paths: 0, queries };
  });
}

/** How many different edge sequences: the rows are distinct walks already, so this equals their number. */
function distinct(rows: { path: number[] }[]): number {
  return new Set(rows.map((r) => r.path.join(','))).size;
}

const FRONT_COLUMNS = `root_id int8 not null, next_id int8 not null, depth int4 not null, satisfied bool,
  is_cycle bool not null, path int8[] not null`;

/** The path-space tables and their indexes (DAWGS' shortest-path table set, including its pair indexes). */
const CREATE_TABLES = [
  ...['forward_front', 'backward_front', 'next_front'].flatMap((name) => [
    `create temporary table ${name} (${FRONT_COLUMNS}) on commit drop`,
    `create index ${name}_next_id_idx on ${name} (next_id)`,
    `create index ${name}_satisfied_idx on ${name} (root_id, next_id, depth) where satisfied`,
    `create index ${name}_is_cycle_idx on ${name} (root_id, next_id) where is_cycle`,
    `create index ${name}_root_id_next_id_idx on ${name} (root_id, next_id)`,
  ]),
  `create temporary table forward_visited (root_id int8 not null, id int8 not null, primary key (root_id, id)) on commit drop`,
  `create temporary table backward_visited (root_id int8 not null, id int8 not null, primary key (root_id, id)) on commit drop`,
];

interface Side {
  /** First level: the edges at the root ($1) into next_front; satisfied when they reach the other endpoint ($2). */
  primer: string;
  /** Later levels: every walk of the front extended by one edge; satisfied when it reaches the other endpoint ($1). */
  recursive: string;
  /** Swap next_front in as the front and prune it; mark its nodes visited. */
  housekeeping(first: boolean, visited: boolean): string[];
  count: string;
  satisfied: string;
}

function side(name: 'forward' | 'backward'): Side {
  const forward = name === 'forward';
  // Forward walks follow edges start → end and append; backward walks follow them end → start and prepend, so
  // both paths read from the query's start to its end.
  const [from, to] = forward ? ['start_id', 'end_id'] : ['end_id', 'start_id'];
  const front = `${name}_front`;
  const seen = `${name}_visited`;
  const insert = `insert into next_front (root_id, next_id, depth, satisfied, is_cycle, path)`;
  return {
    primer: `${insert}
select $1::int8, e.${to}, 1, e.${to} = $2::int8, e.start_id = e.end_id, array[e.id]
from graph_edges e where e.${from} = $1::int8`,
    recursive: `${insert}
select r.root_id, e.${to}, r.depth + 1, e.${to} = $1::int8, e.id = any (r.path), ${forward ? 'r.path || e.id' : 'e.id || r.path'}
from ${front} r join graph_edges e on e.${from} = r.next_id`,
    housekeeping: (first, visited) => [
      `alter table ${front} rename to ${front}_old`,
      `alter table next_front rename to ${front}`,
      `alter table ${front}_old rename to next_front`,
      `truncate table next_front`,
      `delete from ${front} r where r.is_cycle`,
      `delete from ${front} r where r.satisfied is null`,
      `delete from ${front} r where not r.satisfied and not exists (select 1 from graph_edges e where e.${from} = r.next_id)`,
      ...(visited
        ? [
            ...(first
              ? [`insert into ${seen} (root_id, id) select distinct r.root_id, r.root_id from ${front} r on conflict do nothing`]
              : []),
            `delete from ${front} r using ${seen} v where r.root_id = v.root_id and r.next_id = v.id`,
            `insert into ${seen} (root_id, id) select distinct r.root_id, r.next_id from ${front} r on conflict do nothing`,
          ]
        : []),
    ],
    count: `select count(*)::int as n, coalesce(bool_or(r.satisfied), false) as hit from ${front} r`,
    satisfied: `select r.path from ${front} r where r.satisfied`,
  };
}

const SIDES = { forward: side('forward'), backward: side('backward') };

/** The fronts meet: each forward walk joined with each backward walk ending where it ends is a complete path. */
const MEET = `select f.path || b.path as path from forward_front f join backward_front b on f.next_id = b.next_id`;
