/** Statements of the bulk (COPY + set-based merge) write path; see bulk.ts. */

// Temporary and dropped at commit: every write transaction starts from empty tables of its own.
export const CREATE_STAGING = /* SQL */ `-- graph.bulk.createStaging
create temp table if not exists gas_stage_edge_ids (s bigint not null, t bigint not null, k smallint not null, p jsonb not null) on commit drop`;

export const COPY_EDGES_BY_ID = `copy gas_stage_edge_ids (s, t, k, p) from stdin`;

// Nodes merged from parameters (object ids and kind id arrays as text arrays, the properties as one JSON array, zipped
// by ROWS FROM): one statement per batch (a staging COPY, a merge and a truncate were three round trips, ~1.5 s more
// per tier-M ingest). The properties as one JSON text are the rows' JSON joined, where a text array had every quote
// of every row escaped by the driver (~3 % of a tier-M ingest). Kinds are
// unioned; properties merge with the incoming ones winning (additive, like BloodHound's ingest). Rows are unique per
// object id (merged before): a statement may not touch a row twice. The ids and kinds come back so the batch's
// edges need no look-up of these nodes.
export const MERGE_NODE_ROWS = /* SQL */ `-- graph.bulk.mergeNodeRows
insert into graph_nodes as n (objectid, kind_ids, properties)
select u.o, u.k::smallint[], u.p
from rows from (unnest($1::text[]), unnest($2::text[]), jsonb_array_elements($3::jsonb)) as u(o, k, p)
on conflict (objectid) do update
set kind_ids = case when n.kind_ids @> excluded.kind_ids then n.kind_ids
                    else array(select distinct x from unnest(n.kind_ids || excluded.kind_ids) as u(x) order by 1) end,
    properties = n.properties || excluded.properties
returning n.objectid as o, n.id, n.kind_ids as k`;

// A batch's endpoints the writer does not know yet, in one statement (parameters: object ids, kind id arrays as
// text, lastseen values), returning every one's id and kinds:
// - each endpoint is looked up once, by a lateral probe of the object id index that also locks the row against
//   deletion by another transaction until this one commits (the writer keeps its id, and edges have no foreign
//   keys that would notice a vanished node). OFFSET 0 keeps the probes per endpoint: pulled up into a join, a
//   large batch was planned as a scan of the whole table;
// - a placeholder of unknown type (at most its source kind) learns the type an edge gives it; typed nodes, the
//   hubs most edges point at, are not touched (no new row versions on a few hot rows);
// - endpoints not found are created with their referenced kind. One deleted by another transaction since this
//   statement's snapshot is not found by its lock, and is created anew.
// Looked up once rather than once per part (typed, created, existing): a statement of 2,100 endpoints ~68 -> 24-45 ms.
// All parts see the snapshot from before the statement, so the update never visits rows the insert creates.
export const RESOLVE_ENDPOINTS = /* SQL */ `-- graph.bulk.resolveEndpoints
with s as materialized (
  select u.o, u.k::smallint[] as k, u.seen from unnest($1::text[], $2::text[], $3::text[]) as u(o, k, seen)
), f as materialized (
  select s.o, s.k, s.seen, g.id, g.kind_ids, cardinality(g.kind_ids) <= 1 and not g.kind_ids @> s.k as untyped
  from s left join lateral (
    select n.id, n.kind_ids from graph_nodes n where n.objectid = s.o offset 0 for key share
  ) g on true
), typed as (
  update graph_nodes n
  set kind_ids = array(select distinct x from unnest(n.kind_ids || f.k) as u(x) order by 1)
  from f
  where n.id = f.id and f.untyped
  returning n.objectid as o, n.id, n.kind_ids as k
), created as (
  insert into graph_nodes (objectid, kind_ids, properties)
  select f.o, f.k, jsonb_build_object('objectid', f.o, 'lastseen', f.seen)
  from f
  where f.id is null
  on conflict (objectid) do nothing
  returning objectid as o, id, kind_ids as k
)
select o, id, k from typed
union all select o, id, k from created
union all select f.o, f.id, f.kind_ids from f where f.id is not null and not f.untyped`;

// Object ids that RESOLVE_ENDPOINTS did not return: created by another transaction that committed meanwhile.
export const LOCK_NODES = /* SQL */ `-- graph.bulk.lockNodes
select objectid as o, id, kind_ids as k from graph_nodes where objectid = any($1::text[]) for key share`;

// Edges straight into the graph: the same rows MERGE_EDGES_BY_ID would insert when none of them exists yet, under a
// savepoint, in one query string sent with its rows (three statements and a COPY's CopyInResponse were four
// round trips through the writer's event loop per batch). A duplicate fails the COPY, which ends the string before
// the release: the transaction is then rolled back to the savepoint.
export const COPY_GRAPH_EDGES_DIRECT = `savepoint gas_direct_edges; copy graph_edges (start_id, end_id, kind_id, properties) from stdin; release savepoint gas_direct_edges`;
export const ROLLBACK_TO = `rollback to savepoint gas_direct_edges`;

export const MERGE_EDGES_BY_ID = /* SQL */ `-- graph.bulk.mergeEdgesById
insert into graph_edges as e (start_id, end_id, kind_id, properties)
select r.s, r.t, r.k, r.p from gas_stage_edge_ids r
on conflict (start_id, end_id, kind_id) do update set properties = e.properties || excluded.properties`;

export const CLEAR_EDGES_BY_ID = `truncate gas_stage_edge_ids`;
