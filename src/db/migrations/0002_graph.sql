-- The attack graph. Shaped after BloodHound's PostgreSQL layout (DAWGS): kinds as small integers, properties as
-- JSONB kept inline, covering indexes so every traversal hop is an index-only scan.

create table graph_kinds (
  id   smallserial primary key,
  name text not null unique
);

create table graph_nodes (
  id         bigserial primary key,
  -- upper-cased on ingest (SIDs, GUIDs, Azure ids); the identity of a node
  objectid   text not null unique,
  kind_ids   smallint[] not null,
  properties jsonb not null default '{}',
  name       text generated always as (properties ->> 'name') stored
);
alter table graph_nodes alter column properties set storage main;
create index graph_nodes_kinds_idx on graph_nodes using gin (kind_ids);
create index graph_nodes_name_idx on graph_nodes (name);
create index graph_nodes_domainsid_idx on graph_nodes ((properties ->> 'domainsid'));

create table graph_edges (
  id         bigserial primary key,
  start_id   bigint not null references graph_nodes (id) on delete cascade,
  end_id     bigint not null references graph_nodes (id) on delete cascade,
  kind_id    smallint not null references graph_kinds (id),
  properties jsonb not null default '{}',
  unique (start_id, end_id, kind_id)
);
alter table graph_edges alter column properties set storage main;
create index graph_edges_out_idx on graph_edges (start_id, kind_id) include (end_id, id);
create index graph_edges_in_idx on graph_edges (end_id, kind_id) include (start_id, id);
create index graph_edges_kind_idx on graph_edges (kind_id);

-- Bumped in the same transaction as every change to the graph; path indexes in every replica rebuild on change.
create table graph_state (
  id          int primary key default 1 check (id = 1),
  generation  bigint not null default 0,
  changed_at  timestamptz not null default now()
);
insert into graph_state default values;
