-- Node search: name and object id by prefix, fast on large graphs. `lower(name) text_pattern_ops` serves
-- `lower(name) like 'abc%'` whatever the database collation; object ids are stored upper-cased and searched the same
-- way. The trigram index for "contains" searches is 0021's (this file created it first, in a way that left later
-- schemas of the same database without it; a database migrated before keeps what it has and 0021 completes it).
create index if not exists graph_nodes_name_prefix_idx on graph_nodes (lower(name) text_pattern_ops);
create index if not exists graph_nodes_objectid_prefix_idx on graph_nodes (objectid text_pattern_ops);
