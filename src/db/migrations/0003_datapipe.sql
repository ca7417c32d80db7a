-- The data pipeline: upload jobs (files collected for ingest) and the state of ingest/analysis.
-- Job statuses use BloodHound's numbers: -1 invalid, 0 ready, 1 running, 2 complete, 3 canceled, 4 timed out,
-- 5 failed, 6 ingesting, 7 analyzing, 8 partially complete.

create table ingest_jobs (
  id             bigserial primary key,
  user_id        uuid references users (id) on delete set null,
  -- set for jobs a collector client runs (collector lifecycle)
  client_id      uuid,
  status         smallint not null default 1,
  status_message text not null default '',
  start_time     timestamptz not null default now(),
  end_time       timestamptz,
  last_ingest    timestamptz,
  total_files    int not null default 0,
  failed_files   int not null default 0,
  -- the process that holds this job's files on its disk (uploads are processed where they landed)
  instance       text not null,
  created_at     timestamptz not null default now(),
  updated_at     timestamptz not null default now()
);
create index ingest_jobs_status_idx on ingest_jobs (status);

create table ingest_files (
  id            bigserial primary key,
  job_id        bigint not null references ingest_jobs (id) on delete cascade,
  path          text not null,
  original_name text not null,
  content_type  text not null,
  size_bytes    bigint not null,
  -- 0 pending, 2 ingested, 5 failed
  status        smallint not null default 0,
  error         text,
  -- what the file contributed, per file type and per domain (FileResult)
  result        jsonb,
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now()
);
create index ingest_files_job_idx on ingest_files (job_id);

-- One row: a mutex for the pipeline (ingest and analysis never overlap) and the analysis request flag.
-- A request while analysis runs sets the flag again, so exactly one more run follows however many arrive.
create table datapipe_state (
  id                        int primary key default 1 check (id = 1),
  status                    text not null default 'idle' check (status in ('idle', 'ingesting', 'analyzing')),
  worker                    text,
  heartbeat_at              timestamptz,
  analysis_requested        boolean not null default false,
  requested_by              text,
  requested_at              timestamptz,
  last_analysis_run_at      timestamptz,
  last_complete_analysis_at timestamptz,
  last_analysis_result      jsonb,
  updated_at                timestamptz not null default now()
);
insert into datapipe_state default values;
