-- BloodHound's built-in Owned label (type 2): what the analyst marks as compromised, from the node menu of the web
-- app or with a selector of their own. Its members are the Owned marker on the graph. Kept if a label of that name
-- already exists.
insert into asset_group_tags (type, name, description, position, require_certify)
values (2, 'Owned', 'Objects marked as owned (compromised), the start of "shortest paths from owned" questions.', null, false)
on conflict do nothing;
