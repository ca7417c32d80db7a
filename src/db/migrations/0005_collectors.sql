-- Collector management: registered collector clients (each with its own API token), scheduled collection events,
-- the jobs a scheduler or an administrator creates for them, per-domain results and the errors clients report.
-- Job statuses are BloodHound's numbers (see 0003_datapipe.sql).

create table clients (
  id                uuid primary key default gen_random_uuid(),
  name              text not null,
  type              text not null check (type in ('collector_ad', 'collector_azure', 'collector_open')),
  ip_address        text not null default '',
  hostname          text not null default '',
  configured_user   text not null default '',
  version           text not null default '',
  user_sid          text,
  domain_controller text,
  last_checkin      timestamptz,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now()
);
create unique index clients_name_key on clients (lower(name));

-- Deleting a client revokes its token with it.
alter table auth_tokens add constraint auth_tokens_client_id_fkey
  foreign key (client_id) references clients (id) on delete cascade;
create index auth_tokens_client_idx on auth_tokens (client_id);
alter table ingest_jobs add constraint ingest_jobs_client_id_fkey
  foreign key (client_id) references clients (id) on delete set null;

create table collection_events (
  id                       serial primary key,
  client_id                uuid not null references clients (id) on delete cascade,
  rrule                    text not null,
  -- the next occurrence the scheduler will turn into a job; null once a finite rule is exhausted
  next_scheduled_at        timestamptz,
  session_collection       boolean not null default false,
  local_group_collection   boolean not null default false,
  ad_structure_collection  boolean not null default false,
  cert_services_collection boolean not null default false,
  ca_registry_collection   boolean not null default false,
  dc_registry_collection   boolean not null default false,
  all_trusted_domains      boolean not null default false,
  ous                      text[] not null default '{}',
  domains                  text[] not null default '{}',
  created_at               timestamptz not null default now(),
  updated_at               timestamptz not null default now(),
  deleted_at               timestamptz
);
create index collection_events_client_idx on collection_events (client_id);
create index collection_events_due_idx on collection_events (next_scheduled_at) where deleted_at is null;

create table collection_jobs (
  id                       bigserial primary key,
  client_id                uuid not null references clients (id) on delete cascade,
  -- null for ad-hoc tasks an administrator started
  event_id                 int references collection_events (id) on delete set null,
  status                   smallint not null default 0,
  -- what the client said when it ended the job; the final status follows it once ingest is done
  reported_status          smallint,
  status_message           text not null default '',
  execution_time           timestamptz not null,
  start_time               timestamptz,
  end_time                 timestamptz,
  last_ingest              timestamptz,
  log_path                 text,
  event_title              text not null default '',
  session_collection       boolean not null default false,
  local_group_collection   boolean not null default false,
  ad_structure_collection  boolean not null default false,
  cert_services_collection boolean not null default false,
  ca_registry_collection   boolean not null default false,
  dc_registry_collection   boolean not null default false,
  all_trusted_domains      boolean not null default false,
  domain_controller        text,
  ous                      text[] not null default '{}',
  domains                  text[] not null default '{}',
  -- the upload job that carries this job's collected data through ingest and analysis
  ingest_job_id            bigint references ingest_jobs (id) on delete set null,
  created_at               timestamptz not null default now(),
  updated_at               timestamptz not null default now(),
  deleted_at               timestamptz,
  -- one job per occurrence, however many scheduler replicas run
  unique (event_id, execution_time)
);
create index collection_jobs_client_status_idx on collection_jobs (client_id, status);
create unique index collection_jobs_ingest_job_key on collection_jobs (ingest_job_id);
-- a client runs one job at a time
create unique index collection_jobs_one_running on collection_jobs (client_id) where status = 1;

create table collection_domain_results (
  id                 bigserial primary key,
  job_id             bigint not null references collection_jobs (id) on delete cascade,
  domain_name        text not null,
  success            boolean not null,
  message            text not null default '',
  user_count         int not null default 0,
  group_count        int not null default 0,
  computer_count     int not null default 0,
  gpo_count          int not null default 0,
  ou_count           int not null default 0,
  container_count    int not null default 0,
  aiaca_count        int not null default 0,
  rootca_count       int not null default 0,
  enterpriseca_count int not null default 0,
  ntauthstore_count  int not null default 0,
  certtemplate_count int not null default 0,
  deleted_count      int not null default 0,
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now(),
  deleted_at         timestamptz,
  unique (job_id, domain_name)
);

create table client_errors (
  id         bigserial primary key,
  client_id  uuid not null references clients (id) on delete cascade,
  job_id     bigint references collection_jobs (id) on delete cascade,
  task_error text not null,
  additional jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index client_errors_job_idx on client_errors (job_id);
