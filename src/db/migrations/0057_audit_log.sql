-- The audit log (GET /api/v2/audit): every mutating request and every sign-in, successful or not. A change and its
-- row are written in one transaction; a refused or failed attempt is written on its own.
create table audit_logs (
  id                bigserial primary key,
  created_at        timestamptz not null default now(),
  -- who: a user (id, name, email), a collector client, or nobody (an anonymous sign-in attempt)
  actor_id          text not null default '',
  actor_name        text not null default '',
  actor_email       text not null default '',
  actor_kind        text not null default 'anonymous' check (actor_kind in ('user', 'client', 'anonymous')),
  -- what: the action (BloodHound's names where it has one), the fields given (secrets removed)
  action            text not null,
  fields            jsonb not null default '{}',
  -- where and which request
  request_id        text not null default '',
  source_ip_address text not null default '',
  source            text not null default '',
  commit_id         uuid not null default gen_random_uuid(),
  status            text not null check (status in ('intent', 'success', 'failure'))
);
create index audit_logs_created_idx on audit_logs (created_at desc);
create index audit_logs_actor_idx on audit_logs (actor_id);
create index audit_logs_action_idx on audit_logs (action);
