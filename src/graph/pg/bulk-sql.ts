/** Statements of the bulk (COPY + set-based merge) write path; see bulk.ts. */

// Temporary and dropped at commit: every write transaction starts from empty tables of its own.
export const CREATE_STAGING = /* SQL */ `-- graph.bulk.createStaging
create temp table if not exists gas_stage_nodes (o text not null, k smallint[] not null, p jsonb not null) on commit drop;
create temp table if not exists gas_stage_ends (o text not null, k smallint[] not null, seen text) on commit drop;
create temp table if not exists gas_stage_edge_ids (s bigint not null, t bigint not null, k smallint not null, p jsonb not null) on commit drop`;

export const COPY_NODES = `copy gas_stage_nodes (o, k, p) from stdin`;
export const COPY_ENDPOINTS = `copy gas_stage_ends (o, k, seen) from stdin`;
export const COPY_EDGES_BY_ID = `copy gas_stage_edge_ids (s, t, k, p) from stdin`;

// Kinds are unioned; properties merge with the incoming ones winning (additive, like BloodHound's ingest).
// Staged rows are unique per object id (merged before staging): a statement may not touch a row twice. The ids
// and kinds come back so the batch's edges need no look-up of these nodes.
export const MERGE_NODES = /* SQL */ `-- graph.bulk.mergeNodes
insert into graph_nodes as n (objectid, kind_ids, properties)
select s.o, s.k, s.p from gas_stage_nodes s
on conflict (objectid) do update
set kind_ids = case when n.kind_ids @> excluded.kind_ids then n.kind_ids
                    else array(select distinct x from unnest(n.kind_ids || excluded.kind_ids) as u(x) order by 1) end,
    properties = n.properties || excluded.properties
returning n.objectid as o, n.id, n.kind_ids as k`;

// A placeholder of unknown type (at most its source kind) learns the type an edge gives it. Typed nodes, the hubs
// most edges point at, are not touched: no new row versions on a few hot rows.
export const TYPE_PLACEHOLDERS = /* SQL */ `-- graph.bulk.typePlaceholders
update graph_nodes n
set kind_ids = array(select distinct x from unnest(n.kind_ids || s.k) as u(x) order by 1)
from gas_stage_ends s
where n.objectid = s.o and cardinality(n.kind_ids) <= 1 and not n.kind_ids @> s.k`;

// Endpoints not in the graph yet, created with their referenced kind. Probing first (rather than ON CONFLICT DO
// UPDATE … WHERE) leaves existing rows alone: a conflicting row would be locked, a write per endpoint.
export const CREATE_ENDPOINTS = /* SQL */ `-- graph.bulk.createEndpoints
insert into graph_nodes (objectid, kind_ids, properties)
select s.o, s.k, jsonb_build_object('objectid', s.o, 'lastseen', s.seen)
from gas_stage_ends s
where not exists (select 1 from graph_nodes n where n.objectid = s.o)
on conflict (objectid) do nothing`;

// The ids and kinds of a batch's new endpoints (all exist once CREATE_ENDPOINTS has run). The writer keeps them
// for the rest of its transaction, so the rows are locked against deletion by another one until it commits (the
// edges have no foreign keys that would notice a vanished node).
export const ENDPOINT_IDS = /* SQL */ `-- graph.bulk.endpointIds
select s.o, n.id, n.kind_ids as k from gas_stage_ends s join graph_nodes n on n.objectid = s.o for key share of n`;

// Edges straight into the graph: the same rows MERGE_EDGES_BY_ID would insert when none of them exists yet.
export const COPY_GRAPH_EDGES = `copy graph_edges (start_id, end_id, kind_id, properties) from stdin`;
export const SAVEPOINT = `savepoint gas_direct_edges`;
export const RELEASE = `release savepoint gas_direct_edges`;
export const ROLLBACK_TO = `rollback to savepoint gas_direct_edges`;

export const MERGE_EDGES_BY_ID = /* SQL */ `-- graph.bulk.mergeEdgesById
insert into graph_edges as e (start_id, end_id, kind_id, properties)
select r.s, r.t, r.k, r.p from gas_stage_edge_ids r
on conflict (start_id, end_id, kind_id) do update set properties = e.properties || excluded.properties`;

export const CLEAR_NODES = `truncate gas_stage_nodes`;
export const CLEAR_ENDPOINTS = `truncate gas_stage_ends`;
export const CLEAR_EDGES_BY_ID = `truncate gas_stage_edge_ids`;
