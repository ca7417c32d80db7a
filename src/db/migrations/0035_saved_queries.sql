-- Saved Cypher queries (BloodHound's saved_queries and saved_queries_permissions). A query belongs to one user and
-- its name is unique per user. A permission row either shares it with one user or (shared_to_user_id null, public
-- true) makes it public; a query has at most one public row and one row per user it is shared with. The rules of
-- who may change what are the service's (src/services/queries/saved-queries.ts).
create table saved_queries (
  id          bigserial primary key,
  user_id     uuid not null references users (id) on delete cascade,
  name        text not null,
  query       text not null,
  description text not null default '',
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now(),
  unique (user_id, name)
);

create table saved_queries_permissions (
  id                bigserial primary key,
  query_id          bigint not null references saved_queries (id) on delete cascade,
  shared_to_user_id uuid references users (id) on delete cascade,
  public            boolean not null default false,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  check ((shared_to_user_id is null) = public),
  unique (query_id, shared_to_user_id)
);
create unique index saved_queries_permissions_one_public on saved_queries_permissions (query_id) where public;
create index saved_queries_permissions_shared_to on saved_queries_permissions (shared_to_user_id) where shared_to_user_id is not null;
