-- Edge ids drawn 1,000 at a time per session. With the default of one, every edge row written took the sequence's
-- buffer lock and wrote its WAL every 32 values: an ingest's edge COPY and every analysis (~650k derived edges at
-- tier M, written again each run) paid that per row. A COPY of 1.7 M edge rows into a table with graph_edges'
-- indexes took 2.93-3.03 s instead of 3.10-3.25 s (docs/decisions.md, Storage). Ids stay unique and
-- ascending within a session; a session that ends leaves a gap of its unused values, and sessions writing at once
-- interleave blocks of ids. Nothing reads edge ids as dense or as commit order: they identify rows and page scans.
alter sequence graph_edges_id_seq cache 1000;
