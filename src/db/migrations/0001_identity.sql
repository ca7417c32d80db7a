-- Identity: permissions, roles, users, login sessions, API tokens and server-generated secrets.
-- Permission and role names follow BloodHound's so its clients and docs apply unchanged.

create table permissions (
  id          serial primary key,
  authority   text not null,
  name        text not null,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now(),
  deleted_at  timestamptz,
  unique (authority, name)
);

create table roles (
  id          serial primary key,
  name        text not null unique,
  description text not null default '',
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);

create table roles_permissions (
  role_id       int not null references roles (id) on delete cascade,
  permission_id int not null references permissions (id) on delete cascade,
  primary key (role_id, permission_id)
);

create table users (
  id                uuid primary key default gen_random_uuid(),
  principal_name    text not null unique,
  email_address     text,
  first_name        text,
  last_name         text,
  -- scrypt digest; null for users who only sign in through SSO
  secret_digest     text,
  secret_expires_at timestamptz,
  is_disabled       boolean not null default false,
  last_login        timestamptz,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now()
);

create table users_roles (
  user_id uuid not null references users (id) on delete cascade,
  role_id int  not null references roles (id) on delete cascade,
  primary key (user_id, role_id)
);

-- A JWT names one row here (claim jti); ending or deleting the row revokes the JWT.
create table user_sessions (
  id            bigserial primary key,
  user_id       uuid not null references users (id) on delete cascade,
  auth_provider text not null default 'secret',
  expires_at    timestamptz not null,
  ended_at      timestamptz,
  created_at    timestamptz not null default now()
);
create index user_sessions_user_idx on user_sessions (user_id);

-- The key is kept as issued: the server needs it to recompute request signatures (HMAC is symmetric).
create table auth_tokens (
  id          uuid primary key default gen_random_uuid(),
  user_id     uuid references users (id) on delete cascade,
  -- collector clients own tokens too; the foreign key arrives with the clients table
  client_id   uuid,
  name        text,
  key         text not null,
  hmac_method text not null default 'hmac-sha2-256',
  last_access timestamptz,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now(),
  deleted_at  timestamptz,
  constraint auth_tokens_one_owner check ((user_id is null) <> (client_id is null))
);
create index auth_tokens_user_idx on auth_tokens (user_id);

-- Secrets every replica must share (the JWT signing key), generated once on first start.
create table app_secrets (
  name       text primary key,
  value      text not null,
  created_at timestamptz not null default now()
);

insert into permissions (authority, name) values
  ('app', 'ReadAppConfig'), ('app', 'WriteAppConfig'),
  ('risks', 'GenerateReport'), ('risks', 'ManageRisks'),
  ('audit_log', 'Read'),
  ('auth', 'AcceptEULA'), ('auth', 'CreateToken'), ('auth', 'ManageProviders'), ('auth', 'ManageSelf'),
  ('auth', 'ManageUsers'), ('auth', 'ReadUsers'),
  ('clients', 'Manage'), ('clients', 'Read'), ('clients', 'Tasking'),
  ('collection', 'ManageJobs'), ('collection', 'ReadJobs'),
  ('graphdb', 'Ingest'), ('graphdb', 'Mutate'), ('graphdb', 'Read'), ('graphdb', 'Write'),
  ('saved_queries', 'Read'), ('saved_queries', 'Write'),
  ('db', 'Wipe');

insert into roles (name, description) values
  ('Administrator', 'Can manage users, clients, and application configuration'),
  ('Power User', 'Can upload data, manage clients, and perform any action a User can'),
  ('User', 'Can read data, modify asset group memberships'),
  ('Read-Only', 'Used for integrations'),
  ('Upload-Only', 'Used for data collection clients, can post data but cannot read data');

-- AcceptEULA is granted by session overrides only, never by a role (as in BloodHound).
insert into roles_permissions (role_id, permission_id)
select r.id, p.id from roles r cross join permissions p
where r.name = 'Administrator' and not (p.authority = 'auth' and p.name = 'AcceptEULA');

insert into roles_permissions (role_id, permission_id)
select r.id, p.id from roles r join permissions p on (p.authority || '/' || p.name) = any (
  case r.name
    when 'Power User' then array[
      'app/ReadAppConfig', 'risks/GenerateReport', 'risks/ManageRisks', 'auth/CreateToken', 'auth/ManageSelf',
      'auth/ReadUsers', 'clients/Manage', 'clients/Read', 'clients/Tasking', 'collection/ManageJobs',
      'graphdb/Ingest', 'graphdb/Mutate', 'graphdb/Read', 'graphdb/Write', 'saved_queries/Read', 'saved_queries/Write']
    when 'User' then array[
      'app/ReadAppConfig', 'risks/GenerateReport', 'auth/CreateToken', 'auth/ManageSelf', 'auth/ReadUsers',
      'clients/Read', 'graphdb/Read', 'saved_queries/Read', 'saved_queries/Write']
    when 'Read-Only' then array[
      'app/ReadAppConfig', 'risks/GenerateReport', 'auth/CreateToken', 'auth/ManageSelf', 'auth/ReadUsers',
      'graphdb/Read', 'saved_queries/Read']
    when 'Upload-Only' then array['clients/Tasking', 'graphdb/Ingest']
  end)
where r.name in ('Power User', 'User', 'Read-Only', 'Upload-Only');
