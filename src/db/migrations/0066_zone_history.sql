-- What BloodHound keeps of zones and labels besides their members: a history of every change (who, what, when)
-- and the tag fields its client reads (analysis_enabled, glyph). Zones' kind ids are looked up in graph_kinds.
alter table asset_group_tags add column analysis_enabled boolean, add column glyph text,
  -- the legacy asset-group API's tag name, when a legacy client gave one
  add column legacy_tag text;
-- BloodHound: Tier Zero is always analysed; other zones start disabled, labels carry no flag.
update asset_group_tags set analysis_enabled = true where type = 1 and position = 1;

create table asset_group_tag_history (
  id                 bigserial primary key,
  created_at         timestamptz not null default now(),
  -- the user's id (BloodHound's actor) and address, when a user made the change
  actor              text not null,
  email              text,
  -- CreateTag, UpdateTag, DeleteTag, CreateSelector, UpdateSelector, DeleteSelector, CertifyNodeManual, CertifyNodeRevoked
  action             text not null,
  -- the name of what changed (tag, selector, or the node's object id)
  target             text not null,
  -- kept after the tag is deleted: history outlives what it describes
  asset_group_tag_id int not null,
  environment_id     text,
  note               text
);
create index asset_group_tag_history_created_idx on asset_group_tag_history (created_at desc, id desc);
create index asset_group_tag_history_tag_idx on asset_group_tag_history (asset_group_tag_id);
