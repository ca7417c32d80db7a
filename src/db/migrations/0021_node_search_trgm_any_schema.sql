-- The trigram index of 0017 in every schema the service is migrated into. 0017 created pg_trgm without naming a
-- schema, so the extension landed in the first schema of the search_path, and a later schema of the same database
-- (another deployment, a test run, a benchmark's baseline) could not see its operator class and got no index: its
-- "contains" searches scanned the name column, and a benchmark comparing two schemas compared different indexes.
-- Here the extension goes to `public` where it may (dropping one deployment's schema does not take it away from the
-- others), else to the current schema as before, and the operator class is named with the schema it lives in.
do $$
declare
  trgm_schema name;
begin
  select n.nspname into trgm_schema
  from pg_extension e join pg_namespace n on n.oid = e.extnamespace
  where e.extname = 'pg_trgm';
  if trgm_schema is null then
    begin
      create extension if not exists pg_trgm schema public;
    exception when others then
      begin
        create extension if not exists pg_trgm;
      exception when others then
        null; -- another schema's migration may have created it meanwhile: looked up again below
      end;
    end;
    select n.nspname into trgm_schema
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm';
    if trgm_schema is null then
      raise notice 'pg_trgm is not available; contains-searches scan the name column';
      return;
    end if;
  end if;
  execute format(
    'create index if not exists graph_nodes_name_trgm_idx on graph_nodes using gin (lower(name) %I.gin_trgm_ops)',
    trgm_schema
  );
exception when others then
  raise notice 'pg_trgm is not available (%); contains-searches scan the name column', sqlerrm;
end;
$$;
