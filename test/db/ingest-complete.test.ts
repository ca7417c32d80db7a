import fs from 'node:fs';
import { convertAzure } from '../../src/ingest/azure/index';
import { ingestPath } from '../../src/ingest/ingest-path';
import { SharpHoundConverter } from '../../src/ingest/sharphound';
import { PgGraphStore } from '../../src/graph/pg/store';
import { generateAzureHound } from '../../src/generate/azurehound';
import { generateSharpHound } from '../../src/generate/sharphound';
import { useIngestFiles } from '../helpers/ingest-files';

/**
 * A collection of many batches (data-first files, hub-skewed ACEs, placeholders met before their objects) streamed
 * into the graph must hold exactly the edges and nodes the same files give when converted whole in memory: no edge
 * lost between batches, across the known-node memory of the write, or in the COPY (a bound on that memory once
 * dropped 22,306 of 1.74M edges at tier M without a word).
 */
describe('streaming ingest of a generated forest, against the same files converted whole', () => {
  const f = useIngestFiles('gas-complete-');

  it('writes every edge and node the files hold', async () => {
    const sh = generateSharpHound(f.dir(), { users: 1200, seed: 5, acesPerObject: 28 });
    const az = generateAzureHound(f.dir(), { users: 200, seed: 5 });
    const files = [...sh.files, ...az.files];

    const expectedEdges = new Set<string>();
    const expectedNodes = new Set<string>();
    const now = new Date().toISOString();
    const convert = new SharpHoundConverter(now);
    let largest = 0;
    for (const file of files) {
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { meta: { type: string }; data: unknown[] };
      let rows = 0;
      for (const item of doc.data) {
        const c = doc.meta.type === 'azure' ? convertAzure(item, now) : convert.convert(doc.meta.type, item);
        for (const n of c.nodes) expectedNodes.add(n.objectid);
        for (const e of c.edges) {
          expectedEdges.add(`${e.start}|${e.end}|${e.kind}`);
          expectedNodes.add(e.start).add(e.end);
        }
        rows += c.nodes.length + c.edges.length;
      }
      largest = Math.max(largest, rows);
    }
    // The largest file spans several of the writer's batches (20,000 rows each).
    expect(largest).toBeGreaterThan(40_000);

    for (const file of files) {
      const r = await ingestPath(f.store(), file);
      expect(r.errors).toEqual([]);
    }
    const check = async () => {
      const edges = await f.db().query<{ k: string }>(
        `select s.objectid || '|' || t.objectid || '|' || k.name as k
         from graph_edges e join graph_nodes s on s.id = e.start_id join graph_nodes t on t.id = e.end_id
         join graph_kinds k on k.id = e.kind_id`,
      );
      const nodes = await f.db().query<{ objectid: string }>('select objectid from graph_nodes');
      const got = new Set(edges.map((r) => r.k));
      expect(edges.length).toBe(got.size);
      expect([...expectedEdges].filter((k) => !got.has(k)).slice(0, 5)).toEqual([]);
      expect([...got].filter((k) => !expectedEdges.has(k)).slice(0, 5)).toEqual([]);
      expect(got.size).toBe(expectedEdges.size);
      expect(new Set(nodes.map((n) => n.objectid))).toEqual(expectedNodes);
    };
    await check();

    // The same files again, through a writer that remembers at most 500 nodes between batches: every edge now
    // exists (a real server's COPY meets them and the batch is merged instead), and the graph stays the same.
    const forgetful = new PgGraphStore(f.db(), { knownNodes: 500 });
    for (const file of files) expect((await ingestPath(forgetful, file)).errors).toEqual([]);
    await check();
  }, 180_000);
});
