-- The graph's data as BloodHound users manage it: source kinds (what clear-database deletes by), data quality
-- recorded after every analysis, and what each derived edge was derived from.

-- BloodHound's source kinds: Base (AD) and AZBase (Azure) are built in; an OpenGraph file's metadata.source_kind
-- registers another. Id 0 stands for "sourceless" in clear-database requests and is never stored.
create table graph_source_kinds (
  id         serial primary key,
  name       text not null unique,
  created_at timestamptz not null default now()
);
insert into graph_source_kinds (name) values ('Base'), ('AZBase');

-- Data quality per AD domain and Azure tenant, and per platform, one row per analysis run (BloodHound's
-- ad_data_quality_stats, azure_data_quality_stats and their aggregations). Counts are integers; completeness a
-- fraction in [0, 1].
create table data_quality_stats (
  id           bigserial primary key,
  platform     text not null check (platform in ('ad', 'azure')),
  -- domain SID or tenant id; null for the platform's aggregate row
  environment  text,
  run_id       text not null,
  counts       jsonb not null,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now()
);
create index data_quality_stats_env_idx on data_quality_stats (platform, environment, created_at);

-- What a derived edge came from: the edges (start node, end node, kind, by graph ids) analysis read to draw it.
-- Written by analysis in the same transaction as the edges themselves and replaced with them on every run.
create table graph_edge_sources (
  start_id bigint not null,
  end_id   bigint not null,
  kind     text not null,
  -- [[start_id, end_id, "Kind"], …]
  parts    jsonb not null,
  primary key (start_id, end_id, kind)
);

-- OpenGraph extensions (PUT /api/v2/extensions): the schema document as validated, and its kinds.
create table graph_extensions (
  id           serial primary key,
  name         text not null unique,
  display_name text not null,
  version      text not null,
  namespace    text not null,
  document     jsonb not null,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now()
);
create table graph_extension_node_kinds (
  id              serial primary key,
  extension_id    int not null references graph_extensions (id) on delete cascade,
  name            text not null unique,
  display_name    text not null,
  description     text not null default '',
  is_display_kind boolean not null default false,
  icon            text not null default '',
  color           text not null default ''
);
create table graph_extension_relationship_kinds (
  id             serial primary key,
  extension_id   int not null references graph_extensions (id) on delete cascade,
  name           text not null unique,
  description    text not null default '',
  is_traversable boolean not null default false
);
