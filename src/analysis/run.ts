import { POST_PROCESSED_KINDS, TIER_ZERO_KIND } from '../graph/kinds.js';
import type { GraphStore, GraphWriter } from '../graph/store.js';
import { explain } from './explain.js';
import { adcs } from './steps/adcs.js';
import { AZURE_POST_PROCESSED_KINDS, AZURE_STEPS } from './steps/azure/index.js';
import { hybridUsers } from './steps/hybrid.js';
import { dcsync } from './steps/dcsync.js';
import { hasTrustKeys, protectAdminGroups } from './steps/domain-rules.js';
import { gpoApplication } from './steps/gpo.js';
import { localGroupRights } from './steps/local-groups.js';
import { coerceAndRelayNtlm } from './steps/ntlm.js';
import { ownsAndWriteOwner } from './steps/owns.js';
import { tierZero, type TierZeroSeed } from './steps/tier-zero.js';
import { domainAssociations, fixWellKnownNodeTypes, linkWellKnownNodes } from './steps/well-known.js';
import { availableHeap, checkAnalysisMemory } from './memory-guard.js';
import { nextTurn } from '../next-turn.js';
import { AnalysisGraph, Changes, type ANode } from './view.js';
import { DerivedWriter } from './derived-writer.js';

export interface AnalysisResult {
  /** Derived edges written, per kind. */
  edges: Record<string, number>;
  /** Derived edges whose sources were recorded (src/analysis/explain.ts), and how many source edges in all. */
  explained: number;
  explanationParts: number;
  /** Time the explanations took (finding and writing them), inside `ms`. */
  explanationMs: number;
  nodesUpdated: number;
  tierZero: number;
  ms: number;
}

/** Runtime parameters a step reads (BloodHound's appcfg analysis flags). */
export interface StepOptions {
  /** analysis.citrix_rdp_support: CanRDP on a computer with Direct Access Users needs that group too. */
  citrixRdpSupport: boolean;
}

/**
 * One analysis step: reads the view (including earlier steps' edges) and records what it derives. A step that
 * loops over many edges may return a promise and yield to the event loop in between (see `nextTurn`).
 */
export type AnalysisStep = (g: AnalysisGraph, c: Changes, opts: StepOptions) => void | Promise<void>;

/** The steps, in order (later steps build on earlier ones: ADCS reads Owns, well-known memberships come first). */
export const ANALYSIS_STEPS: AnalysisStep[] = [
  fixWellKnownNodeTypes,
  domainAssociations,
  linkWellKnownNodes,
  localGroupRights,
  dcsync,
  ownsAndWriteOwner,
  gpoApplication,
  protectAdminGroups,
  hasTrustKeys,
  adcs,
  coerceAndRelayNtlm,
  ...AZURE_STEPS,
  hybridUsers,
];

export interface AnalysisOptions {
  now?: Date;
  /** Seeds of the Tier Zero zone's selectors; BloodHound's defaults (tier-zero-defaults.ts) when not given. */
  tierZeroSeeds?: readonly TierZeroSeed[];
  /** See StepOptions; off by default, as in BloodHound. */
  citrixRdpSupport?: boolean;
  /** Heap the run may take, in bytes, at most what this thread has left (its default; tests pass less). */
  heapBytes?: number;
  /** Told as the run moves on (a progress bar): loading the graph, each rule, Tier Zero, the last of the write. */
  onProgress?: (p: AnalysisProgress) => void;
}

/** Where a run is: `done` of `total` stages (the load, each rule, Tier Zero, the write), and the graph's size. */
export interface AnalysisProgress {
  stage: string;
  done: number;
  total: number;
  nodes: number;
  edges: number;
}

/**
 * One analysis run (BloodHound's RunAnalysisOperations): reads the graph, computes every derived fact in memory,
 * and in one transaction replaces all post-processed edges and the tier-zero tags. The rules run inside that
 * transaction, their edges written behind them (see DerivedWriter); nothing is visible until it commits. Running
 * it twice gives the same graph.
 */
export async function runAnalysis(store: GraphStore, opts: AnalysisOptions = {}): Promise<AnalysisResult> {
  const started = Date.now();
  // Derived edges already in the graph are not read (they are made again, in memory, and counted in the estimate).
  const graph = await store.counts({ edgesExcept: [...POST_PROCESSED_KINDS, ...AZURE_POST_PROCESSED_KINDS] });
  checkAnalysisMemory(graph, Math.min(opts.heapBytes ?? Infinity, availableHeap()));
  const total = ANALYSIS_STEPS.length + 3;
  const progress = (stage: string, done: number) => opts.onProgress?.({ stage, done, total, nodes: graph.nodes, edges: graph.edges });
  progress('loading the graph', 0);
  const g = await AnalysisGraph.load(store);
  const c = new Changes(g, (opts.now ?? new Date()).toISOString());
  const stepOptions: StepOptions = { citrixRdpSupport: opts.citrixRdpSupport ?? false };
  let explained = { edges: 0, parts: 0 };
  let explanationMs = 0;
  const t0 = await store.write(async (w) => {
    // The rules run inside the write transaction so that what they record is written while the next ones compute.
    const replaced = [...POST_PROCESSED_KINDS, ...AZURE_POST_PROCESSED_KINDS];
    const writer = new DerivedWriter(w, g, c, new Set(replaced), w.deleteEdgesOfKinds(replaced));
    c.onPile = () => writer.behind();
    // Between steps, whatever waits on this thread gets its turn (the steps held the loop ~3.7 s in one piece at
    // tier M): the command line runs analysis on its only thread.
    let tagged: ANode[];
    try {
      for (const [i, step] of ANALYSIS_STEPS.entries()) {
        progress(step.name || 'rules', i + 1);
        await step(g, c, stepOptions);
        writer.behind();
        await nextTurn();
      }
      progress('tier zero', total - 2);
      tagged = await tierZero(g, opts.tierZeroSeeds);
      progress('writing', total - 1);
      await writer.end();
      const e0 = Date.now();
      explained = await writeExplanations(w, g, c, writer);
      explanationMs = Date.now() - e0;
    } catch (err) {
      await writer.abandon();
      throw err;
    }
    await w.removeKindEverywhere(TIER_ZERO_KIND);
    await w.removePropertyEverywhere('system_tags');
    await w.upsertNodes(
      tagged.map((n) => ({ objectid: n.objectid, kinds: [TIER_ZERO_KIND], properties: { system_tags: 'admin_tier_0' } })),
    );
    return tagged;
  });
  progress('done', total);
  return {
    edges: c.counts,
    explained: explained.edges,
    explanationParts: explained.parts,
    explanationMs,
    nodesUpdated: c.nodes.length,
    tierZero: t0.length,
    ms: Date.now() - started,
  };
}

/** Records what the explained derived edges came from, in the run's transaction (replacing the last run's). */
async function writeExplanations(
  w: GraphWriter,
  g: AnalysisGraph,
  c: Changes,
  writer: DerivedWriter,
): Promise<{ edges: number; parts: number }> {
  const found = explain(g, c.edges);
  await writer.resolveCreated(found.flatMap((f) => [f.edge.startId, f.edge.endId, ...f.parts.flatMap((p) => [p.startId, p.endId])]));
  const id = (n: number) => writer.graphId(n)!;
  const rows = found.map(({ edge, parts }) => ({
    startId: id(edge.startId),
    endId: id(edge.endId),
    kind: edge.kind,
    parts: parts.map((p) => [id(p.startId), id(p.endId), p.kind] as [number, number, string]),
  }));
  await w.replaceEdgeSources(rows);
  return { edges: rows.length, parts: rows.reduce((n, r) => n + r.parts.length, 0) };
}
