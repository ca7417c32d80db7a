-- Node search (issue 12): name and object id by prefix, fast on large graphs. `lower(name) text_pattern_ops` serves
-- `lower(name) like 'abc%'` whatever the database collation; object ids are stored upper-cased and searched the same
-- way. Where pg_trgm is available (PostgreSQL servers; not embedded PGlite without its extension loaded), a trigram
-- index also serves "contains" searches; elsewhere those scan the name column.
create index if not exists graph_nodes_name_prefix_idx on graph_nodes (lower(name) text_pattern_ops);
create index if not exists graph_nodes_objectid_prefix_idx on graph_nodes (objectid text_pattern_ops);

do $$
begin
  create extension if not exists pg_trgm;
  create index if not exists graph_nodes_name_trgm_idx on graph_nodes using gin (lower(name) gin_trgm_ops);
exception when others then
  raise notice 'pg_trgm is not available (%); contains-searches scan the name column', sqlerrm;
end;
$$;
