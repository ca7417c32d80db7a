import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { runAnalysis } from '../../src/analysis/run';
import { AZURE_POST_PROCESSED_KINDS } from '../../src/analysis/steps/azure/index';
import { POST_PROCESSED_KINDS } from '../../src/graph/kinds';
import { checkAnalysisMemory, PEAK_BYTES_PER_EDGE, PEAK_BYTES_PER_NODE } from '../../src/analysis/memory-guard';
import { AppError } from '../../src/errors';
import { useTestApp } from '../helpers/app';
import { TESTLAB } from '../helpers/fixtures';
import { uploadJob, useUploads } from '../helpers/upload';

const files = () =>
  fs
    .readdirSync(TESTLAB)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(TESTLAB, f));

/**
 * Analysis holds the graph in memory; a graph larger than the heap used to abort the whole process after minutes of
 * garbage collection (tier L with Node's default heap). It is refused up front instead: the job fails with the
 * reason, nothing of the graph changes, and the server goes on answering.
 */
describe('analysis larger than the heap it may take', () => {
  const t = useTestApp({ analysisMaxHeapMb: 0 });
  const up = useUploads(t);
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });

  it('fails the job with what to change, writes no analysis edge, and the server stays up', async () => {
    const id = await uploadJob(t.app, up.token, files());
    await t.services.datapipe.drain();
    const job = await up.job(id);
    expect(job.status).toBe(5); // failed
    expect(job.status_message).toMatch(
      /^analysis failed: Analysis of \d+ nodes and \d+ edges needs about .* GiB of memory.*--max-old-space-size=\d+/,
    );
    // Ingest landed; analysis changed nothing (no derived edge, no Tier Zero tag).
    const { nodes, edges } = await t.infra.graphStore.counts();
    expect(nodes).toBeGreaterThan(50);
    expect(edges).toBeGreaterThan(100);
    expect(await t.infra.graphStore.nodeIdsWithKinds(['Tag_Tier_Zero'])).toEqual([]);
    expect((await request(t.app).get('/health')).status).toBe(200);
    expect((await request(t.app).get('/api/v2/available-domains').set(admin())).status).toBe(200);
  });

  it('runs when the heap holds the graph, refuses it with one byte less, and does not count the edges it derives', async () => {
    const derived = [...POST_PROCESSED_KINDS, ...AZURE_POST_PROCESSED_KINDS];
    const graph = await t.infra.graphStore.counts({ edgesExcept: derived });
    const need = graph.nodes * PEAK_BYTES_PER_NODE + graph.edges * PEAK_BYTES_PER_EDGE;
    expect(() => checkAnalysisMemory(graph, need)).not.toThrow();
    expect(() => checkAnalysisMemory(graph, need - 1)).toThrow(AppError);
    await expect(runAnalysis(t.infra.graphStore, { heapBytes: need - 1 })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const result = await runAnalysis(t.infra.graphStore, { heapBytes: need });
    expect(result.tierZero).toBeGreaterThan(0);
    // The graph now holds the derived edges, which the estimate leaves out (they are made again, in memory): only
    // what analysis adds besides them (well-known nodes and their few edges) counts.
    const total = (await t.infra.graphStore.counts()).edges;
    const after = await t.infra.graphStore.counts({ edgesExcept: derived });
    expect(total - after.edges).toBeGreaterThan(50);
    expect(after.edges - graph.edges).toBeLessThan(total - after.edges);
    const needAfter = after.nodes * PEAK_BYTES_PER_NODE + after.edges * PEAK_BYTES_PER_EDGE;
    await expect(runAnalysis(t.infra.graphStore, { heapBytes: needAfter })).resolves.toMatchObject({ tierZero: result.tierZero });
  });
});
