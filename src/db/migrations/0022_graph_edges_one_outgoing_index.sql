-- One index for an edge's identity and for walking out of a node. The unique constraint on (start_id, end_id,
-- kind_id) and the outgoing index on (start_id, kind_id) INCLUDE (end_id, id) held the same columns twice: every
-- edge written paid two B-tree insertions for them. One unique index on (start_id, kind_id, end_id) INCLUDE (id)
-- serves both: ON CONFLICT (start_id, end_id, kind_id) infers it (inference goes by the set of columns), outgoing
-- walks read it as they read the old index (same leading columns, end_id and id in the index), and a look-up of
-- one edge is an equality on all three keys. Measured on tier M: a COPY of the same 1,742,289 edges took 25.3–28.8 s
-- instead of 36.4–36.7 s, and the edge indexes 270 MB instead of 350 MB (docs/decisions.md, Storage).
create unique index graph_edges_identity_out_idx on graph_edges (start_id, kind_id, end_id) include (id);
alter table graph_edges drop constraint graph_edges_start_id_end_id_kind_id_key;
drop index graph_edges_out_idx;
