-- Every new graph generation is announced (delivered at commit), so each server's path index rebuilds as soon as
-- any writer (this server, `gas ingest` on the same database, another replica) has committed, not when a request
-- happens to look.
create or replace function gas_graph_generation_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('gas_graph', new.generation::text);
  return null;
end $$;

create trigger graph_state_generation_notify
  after update of generation on graph_state
  for each row when (new.generation is distinct from old.generation)
  execute function gas_graph_generation_notify();
