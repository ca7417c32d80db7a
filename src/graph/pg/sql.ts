/** Statements of the PostgreSQL graph store. Values are always parameters; batches travel as one jsonb value. */

/**
 * The largest property value served, in bytes of its stored form (one 250 MiB value read by 8 callers
 * took the service to 5.2 GiB). A larger value is served as a short marker string naming its size. Values this big
 * are refused on write too (see `boundProperties` in bounds.ts); the read bound covers rows written before that.
 */
export const MAX_PROPERTY_BYTES = 1024 * 1024;

/** A property value, or the marker when it is over the limit. `v` is an SQL expression of type jsonb. */
const bounded = (v: string) =>
  `case when pg_column_size(${v}) > ${MAX_PROPERTY_BYTES} then to_jsonb(format('[value of %s bytes omitted: over the ${MAX_PROPERTY_BYTES}-byte property limit]', pg_column_size(${v}))) else ${v} end`;

/**
 * A properties column with every oversized value replaced by the marker. Only rows whose stored (compressed) size
 * is over 16 KiB are taken apart value by value, so ordinary rows cost nothing extra; a highly compressible value
 * under that can be at most ~1.6 MiB once expanded.
 */
const boundedProperties = (col: string) =>
  `case when pg_column_size(${col}) <= 16384 then ${col} else (select coalesce(jsonb_object_agg(p.k, ${bounded('p.v')}), '{}'::jsonb) from jsonb_each(${col}) as p(k, v)) end`;

export const KINDS_LIST = /* SQL */ `-- graph.kinds.list
select id, name from graph_kinds`;

export const KINDS_ENSURE = /* SQL */ `-- graph.kinds.ensure
insert into graph_kinds (name) select unnest($1::text[]) on conflict (name) do nothing`;

export const GENERATION = /* SQL */ `-- graph.generation
select generation from graph_state where id = 1`;

export const BUMP_GENERATION = /* SQL */ `-- graph.bumpGeneration
update graph_state set generation = generation + 1, changed_at = now() where id = 1 returning generation`;

export const COUNTS = /* SQL */ `-- graph.counts
select (select count(*) from graph_nodes)::bigint as nodes, (select count(*) from graph_edges)::bigint as edges`;

// The same, leaving out the edges of the named kinds ($1).
export const COUNTS_EXCEPT = /* SQL */ `-- graph.countsExcept
select (select count(*) from graph_nodes)::bigint as nodes,
       (select count(*) from graph_edges
        where kind_id <> all (array(select id from graph_kinds where name = any($1::text[]))))::bigint as edges`;

// Kinds are unioned; properties merge with the incoming ones winning (additive, like BloodHound's ingest).
export const UPSERT_NODES = /* SQL */ `-- graph.upsertNodes
insert into graph_nodes as n (objectid, kind_ids, properties)
select r.o, array(select distinct x::smallint from jsonb_array_elements_text(r.k) as t(x) order by 1), r.p
from jsonb_to_recordset($1::jsonb) as r(o text, k jsonb, p jsonb)
on conflict (objectid) do update
set kind_ids = array(select distinct x from unnest(n.kind_ids || excluded.kind_ids) as u(x) order by 1),
    properties = n.properties || excluded.properties`;

// Edge endpoints that are not in the graph yet: created with their referenced kind. An existing node is only
// updated when it has no type of its own yet (it was itself a placeholder of unknown type): re-writing the hub
// nodes every batch references (groups in most ACEs) would pile up row versions on a few hot rows.
export const ENSURE_ENDPOINTS = /* SQL */ `-- graph.ensureEndpoints
insert into graph_nodes as n (objectid, kind_ids, properties)
select r.o, array(select distinct x::smallint from jsonb_array_elements_text(r.k) as t(x) order by 1),
       jsonb_build_object('objectid', r.o, 'lastseen', r.seen)
from jsonb_to_recordset($1::jsonb) as r(o text, k jsonb, seen text)
on conflict (objectid) do update
set kind_ids = array(select distinct x from unnest(n.kind_ids || excluded.kind_ids) as u(x) order by 1)
where cardinality(n.kind_ids) <= 1 and not n.kind_ids @> excluded.kind_ids`;

export const UPSERT_EDGES = /* SQL */ `-- graph.upsertEdges
insert into graph_edges as e (start_id, end_id, kind_id, properties)
select s.id, t.id, r.k, r.p
from jsonb_to_recordset($1::jsonb) as r(s text, t text, k smallint, p jsonb)
join graph_nodes s on s.objectid = r.s
join graph_nodes t on t.objectid = r.t
on conflict (start_id, end_id, kind_id) do update set properties = e.properties || excluded.properties`;

export const UPSERT_EDGES_BY_ID = /* SQL */ `-- graph.upsertEdgesById
insert into graph_edges as e (start_id, end_id, kind_id, properties)
select s, t, k, p::jsonb from unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::text[]) as r(s, t, k, p)
on conflict (start_id, end_id, kind_id) do update set properties = e.properties || excluded.properties`;

export const NODE_IDS_BY_OBJECTIDS = /* SQL */ `-- graph.nodeIdsByObjectIds
select id, objectid from graph_nodes where objectid = any($1::text[])`;

export const DELETE_NODES = /* SQL */ `-- graph.deleteNodes
delete from graph_nodes where objectid = any($1::text[])`;

export const DELETE_EDGES_OF_KINDS = /* SQL */ `-- graph.deleteEdgesOfKinds
delete from graph_edges where kind_id = any($1::smallint[])`;

export const CLEAR_ALL = /* SQL */ `-- graph.clearAll
truncate graph_edges, graph_nodes`;

/** $1: kind ids whose nodes go; $2: whether sourceless nodes go too; $3: the source kind ids (sourceless = none). */
export const DELETE_NODES_OF_KINDS = /* SQL */ `-- graph.deleteNodesOfKinds
with doomed as (
  select id from graph_nodes where kind_ids && $1::smallint[] or ($2::boolean and not kind_ids && $3::smallint[])
), edges as (
  delete from graph_edges where start_id in (select id from doomed) or end_id in (select id from doomed)
)
delete from graph_nodes where id in (select id from doomed)`;

export const DELETE_EDGE_SOURCES = /* SQL */ `-- graph.deleteEdgeSources
delete from graph_edge_sources`;

export const INSERT_EDGE_SOURCES = /* SQL */ `-- graph.insertEdgeSources
insert into graph_edge_sources (start_id, end_id, kind, parts)
select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::jsonb[])
on conflict (start_id, end_id, kind) do update set parts = excluded.parts`;

export const EDGE_SOURCES = /* SQL */ `-- graph.edgeSources
select parts from graph_edge_sources where start_id = $1 and end_id = $2 and kind = $3`;

export const EDGES_INTO = /* SQL */ `-- graph.edgesInto
select e.id, e.start_id as "startId", e.end_id as "endId", e.kind_id as "kindId", e.properties
from graph_edges e where e.end_id = $1 and e.kind_id = any($2::smallint[]) order by e.id`;

export const REMOVE_KIND = /* SQL */ `-- graph.removeKind
update graph_nodes set kind_ids = array_remove(kind_ids, $1::smallint) where kind_ids @> array[$1::smallint]`;

export const REMOVE_PROPERTY = /* SQL */ `-- graph.removeProperty
update graph_nodes set properties = properties - $1::text where properties ? $1::text`;

const NODE_COLUMNS = /* SQL */ `n.id, n.objectid, n.kind_ids as "kindIds", ${boundedProperties('n.properties')} as properties`;

export const NODE_BY_OBJECTID = /* SQL */ `-- graph.nodeByObjectId
select ${NODE_COLUMNS} from graph_nodes n where n.objectid = $1`;

export const NODES_BY_OBJECTIDS = /* SQL */ `-- graph.nodesByObjectIds
select ${NODE_COLUMNS} from graph_nodes n where n.objectid = any($1::text[])`;

export const NODE_IDS_WITH_KINDS = /* SQL */ `-- graph.nodeIdsWithKinds
select n.id from graph_nodes n
where n.kind_ids && (select coalesce(array_agg(k.id), '{}') from graph_kinds k where k.name = any($1::text[]))
order by n.id`;

export const NODES_BY_IDS = /* SQL */ `-- graph.nodesByIds
select ${NODE_COLUMNS} from graph_nodes n where n.id = any($1::bigint[])`;

export const NODE_SUMMARIES = /* SQL */ `-- graph.nodeSummaries
select n.id, n.objectid, n.name, n.kind_ids as "kindIds" from graph_nodes n where n.id = any($1::bigint[])`;

export const EDGES_BY_TRIPLES = /* SQL */ `-- graph.edgesByTriples
select e.id, e.start_id as "startId", e.end_id as "endId", e.kind_id as "kindId", ${boundedProperties('e.properties')} as properties
from unnest($1::bigint[], $2::bigint[], $3::smallint[]) as t(s, e, k)
join graph_edges e on e.start_id = t.s and e.end_id = t.e and e.kind_id = t.k`;

// Properties only of the kinds in $2 (every kind when null); null for the others.
export const EDGES_OF_KINDS = /* SQL */ `-- graph.edgesOfKinds
select e.id, e.start_id as "startId", e.end_id as "endId", e.kind_id as "kindId",
       case when $2::smallint[] is null or e.kind_id = any($2::smallint[]) then ${boundedProperties('e.properties')} end as properties
from graph_edges e where e.kind_id = any($1::smallint[]) and e.id > $3 order by e.id limit $4`;

// The same rows in one query (beside edgesOfKinds' COPY, for the few kinds read with properties).
export const EDGES_OF_KINDS_AT_ONCE = /* SQL */ `-- graph.edgesOfKindsAtOnce
select e.id, e.start_id as "startId", e.end_id as "endId", e.kind_id as "kindId",
       case when e.kind_id = any($2::smallint[]) then ${boundedProperties('e.properties')} end as properties
from graph_edges e where e.kind_id = any($1::smallint[]) order by e.id`;

// Keyset pages, rows as arrays: the path index loads millions of rows without building an object per row.
export const SCAN_NODES = /* SQL */ `-- graph.scanNodes
select n.id, n.objectid, n.kind_ids, (select jsonb_object_agg(k, ${bounded('n.properties -> k')}) from unnest($3::text[]) k where n.properties ? k)
from graph_nodes n where n.id > $1 order by n.id limit $2`;

/**
 * An edge's flags for the path index (EDGE_FLAG in graph/store.ts), `$GPLINK` standing for the GPLink kind id: bit 0
 * GPLink enforced; bits 1-3 the isacl property as true, false, or present but not a boolean (none of them: absent or
 * JSON null). Cypher's `r.isacl` over every edge reads the bits instead of a 1.9 M-row column. One
 * key look-up an edge (a simple CASE reads its operand once).
 */
export const EDGE_FLAGS_SQL = /* SQL */ `(case when e.kind_id = $GPLINK and (e.properties ->> 'enforced')::boolean then 1 else 0 end
   | case coalesce(e.properties -> 'isacl', 'null') when 'true' then 2 when 'false' then 4 when 'null' then 0 else 8 end)`;

export const SCAN_EDGES = /* SQL */ `-- graph.scanEdges
select e.id, e.start_id, e.end_id, e.kind_id, ${EDGE_FLAGS_SQL.replace('$GPLINK', '$3')} as flags
from graph_edges e where e.id > $1 order by e.id limit $2`;

/**
 * The reference all-shortest-paths query, in SQL only: breadth-first distances from the start and to the end
 * (recursive CTEs, depth-bounded), then an enumeration of paths that only steps onto nodes whose two distances
 * add up to the shortest length. Work is bounded by nodes × depth plus the number of shortest paths.
 */
export const ALL_SHORTEST_PATHS = /* SQL */ `-- graph.allShortestPaths
with recursive
fwd(node, depth) as (
  select $1::bigint, 0
  union
  select e.end_id, f.depth + 1 from fwd f join graph_edges e on e.start_id = f.node
  where f.depth < $3 and ($4::smallint[] is null or e.kind_id = any($4::smallint[]))
),
bwd(node, depth) as (
  select $2::bigint, 0
  union
  select e.start_id, b.depth + 1 from bwd b join graph_edges e on e.end_id = b.node
  where b.depth < $3 and ($4::smallint[] is null or e.kind_id = any($4::smallint[]))
),
ds as (select node, min(depth) as d from fwd group by node),
dt as (select node, min(depth) as d from bwd group by node),
total as (select d from ds where node = $2::bigint),
onpath as (select ds.node, ds.d from ds join dt on dt.node = ds.node cross join total where ds.d + dt.d = total.d),
walk(node, path, depth) as (
  select $1::bigint, array[]::bigint[], 0
  union all
  select e.end_id, w.path || e.id, w.depth + 1
  from walk w
  join graph_edges e on e.start_id = w.node
  join onpath o on o.node = e.end_id and o.d = w.depth + 1
  where $4::smallint[] is null or e.kind_id = any($4::smallint[])
)
select w.path from walk w cross join total where w.node = $2::bigint and w.depth = total.d and w.depth > 0`;

export const EDGES_BY_IDS = /* SQL */ `-- graph.edgesByIds
select e.id, e.start_id as "startId", e.end_id as "endId", e.kind_id as "kindId" from graph_edges e where e.id = any($1::bigint[])`;

export const NODE_PROPERTY_COLUMN = /* SQL */ `-- graph.nodePropertyColumn
select n.id, ${bounded('n.properties -> $1')} as v from graph_nodes n where n.properties ? $1`;

export const EDGE_PROPERTY_COLUMN = /* SQL */ `-- graph.edgePropertyColumn
select e.start_id as s, e.end_id as e, e.kind_id as k, ${bounded('e.properties -> $1')} as v from graph_edges e where e.properties ? $1`;

export const NODE_OBJECTID_COLUMN = /* SQL */ `-- graph.nodeObjectidColumn
select n.id, n.objectid as v from graph_nodes n`;
