-- AD sites join Tier Zero's default selectors, as in BloodHound: whoever controls a site (its gPLink) runs a GPO on
-- the domain controllers that are its servers. The list must stay equal to src/analysis/tier-zero-defaults.ts.
insert into asset_group_tag_selectors (asset_group_tag_id, name, description, seeds, auto_certify, is_default, created_by, updated_by)
select t.id, 'AD site', 'A GPO linked to a site applies to the domain controllers that are its servers.',
  '[{"type":"rule","value":"kind:Site"}]'::jsonb, false, false, 'system', 'system'
from asset_group_tags t
where t.type = 1 and t.position = 1
  and not exists (select 1 from asset_group_tag_selectors x where x.asset_group_tag_id = t.id and x.name = 'AD site');
