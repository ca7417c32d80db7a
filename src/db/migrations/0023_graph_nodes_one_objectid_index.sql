-- One index on a node's object id. The unique constraint (default operator class) and 0017's prefix index
-- (text_pattern_ops) held the same column twice: every node version written paid both. A unique index with
-- text_pattern_ops serves all three uses: uniqueness and ON CONFLICT (objectid) (inference ignores the operator
-- class unless the statement names one), equality look-ups (= and = ANY use it), and the search's prefix LIKE. No
-- statement orders by object id, which is the one thing the default operator class would add. On tier M's 115,760
-- nodes a COPY took 5.6-6.0 s instead of 6.0-6.9 s (docs/decisions.md, Storage).
create unique index graph_nodes_objectid_idx on graph_nodes (objectid text_pattern_ops);
alter table graph_nodes drop constraint graph_nodes_objectid_key;
drop index graph_nodes_objectid_prefix_idx;
