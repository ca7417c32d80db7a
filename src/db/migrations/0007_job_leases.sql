-- Crash recovery of the data pipeline.
--
-- A job belongs to the process that works on it only while that process keeps renewing its lease: a process that
-- died stops renewing, and any live replica may then take the job over (resume it, or fail the files it cannot
-- reach). Until now a job was bound to its process's instance id for good.
alter table ingest_jobs add column lease_until timestamptz;
update ingest_jobs set lease_until = now() where status in (1, 6);
create index ingest_jobs_active_idx on ingest_jobs (status, lease_until) where status in (1, 6, 7);

-- The parts of an uploaded file committed to the graph (a JSON file, or one entry of a zip), each written in the
-- same transaction as the graph change it records. A resumed job skips them, so no committed part is ingested
-- twice and every uncommitted one is; the primary key also stops two replicas committing the same part.
create table ingest_file_parts (
  file_id    bigint not null references ingest_files (id) on delete cascade,
  part       text not null,
  result     jsonb not null,
  created_at timestamptz not null default now(),
  primary key (file_id, part)
);
