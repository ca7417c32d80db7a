-- Identity and display administration: SSO providers (SAML), custom node kinds, and asset group tags (zones and
-- labels) with selectors, members and certification history.

create table sso_providers (
  id         serial primary key,
  name       text not null,
  slug       text not null unique,
  type       text not null default 'saml' check (type in ('saml')),
  -- {"auto_provision": {"enabled": bool, "default_role_id": int, "role_provision": bool}}
  config     jsonb not null default '{"auto_provision": {"enabled": false, "default_role_id": 3, "role_provision": false}}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index sso_providers_name_key on sso_providers (lower(name));

create table saml_providers (
  id                           serial primary key,
  sso_provider_id              int not null unique references sso_providers (id) on delete cascade,
  name                         text not null,
  display_name                 text not null,
  idp_issuer_uri               text not null,
  idp_sso_uri                  text not null,
  -- base64 DER of the IdP's signing certificates, from the metadata
  idp_certs                    text[] not null,
  principal_attribute_mappings text[] not null default '{}',
  created_at                   timestamptz not null default now(),
  updated_at                   timestamptz not null default now(),
  deleted_at                   timestamptz
);

alter table users add column sso_provider_id int references sso_providers (id) on delete set null;

-- AuthnRequest ids issued by any replica, so a response's InResponseTo can be checked wherever it arrives.
create table saml_requests (
  id         text primary key,
  value      text not null,
  created_at timestamptz not null default now()
);

create table custom_node_kinds (
  id         serial primary key,
  kind_name  text not null unique,
  -- {"icon": {"type": "iconset", "name": "...", "color": "#RRGGBB"}}
  config     jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- type: 1 zone (tier, ordered by position), 2 label
create table asset_group_tags (
  id              serial primary key,
  type            smallint not null check (type in (1, 2)),
  name            text not null,
  description     text not null default '',
  position        int,
  require_certify boolean not null default false,
  created_at      timestamptz not null default now(),
  created_by      text not null default 'system',
  updated_at      timestamptz not null default now(),
  updated_by      text not null default 'system',
  constraint asset_group_tags_zone_position check ((type = 1) = (position is not null))
);
create unique index asset_group_tags_name_key on asset_group_tags (lower(name));
create unique index asset_group_tags_position_key on asset_group_tags (position) where type = 1;

create table asset_group_tag_selectors (
  id                 serial primary key,
  asset_group_tag_id int not null references asset_group_tags (id) on delete cascade,
  name               text not null,
  description        text not null default '',
  -- [{"type": "objectid" | "kind", "value": "..."}]
  seeds              jsonb not null,
  auto_certify       boolean not null default false,
  -- seeded selectors (Tier Zero's analysis selector) cannot be deleted
  is_default         boolean not null default false,
  created_at         timestamptz not null default now(),
  created_by         text not null default 'system',
  updated_at         timestamptz not null default now(),
  updated_by         text not null default 'system'
);
create index asset_group_tag_selectors_tag_idx on asset_group_tag_selectors (asset_group_tag_id);

-- Members: graph nodes a selector selects. certified: 0 pending, 1 revoked, 2 certified by a user, 3 automatic.
create table asset_group_tag_selector_nodes (
  selector_id  int not null references asset_group_tag_selectors (id) on delete cascade,
  node_id      bigint not null,
  certified    smallint not null default 0 check (certified between 0 and 3),
  certified_by text,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now(),
  primary key (selector_id, node_id)
);
create index asset_group_tag_selector_nodes_node_idx on asset_group_tag_selector_nodes (node_id);

create table asset_group_certifications (
  id          bigserial primary key,
  node_id     bigint not null,
  selector_id int references asset_group_tag_selectors (id) on delete set null,
  tag_id      int references asset_group_tags (id) on delete set null,
  -- 1 revoke, 2 certify
  action      smallint not null,
  previous    smallint not null,
  note        text not null default '',
  actor       text not null,
  created_at  timestamptz not null default now()
);
create index asset_group_certifications_node_idx on asset_group_certifications (node_id);

insert into asset_group_tags (type, name, description, position, require_certify)
values (1, 'Tier Zero', 'Tier Zero: the principals and systems that control the environment.', 1, true);
insert into asset_group_tag_selectors (asset_group_tag_id, name, description, seeds, auto_certify, is_default)
select id, 'Tier Zero (analysis)', 'Everything analysis tags as tier zero.', '[{"type": "kind", "value": "Tag_Tier_Zero"}]', false, true
from asset_group_tags where name = 'Tier Zero';
