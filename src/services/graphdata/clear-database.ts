import { badRequest } from '../../errors.js';
import type { GraphStore } from '../../graph/store.js';
import type { GraphDataStore } from '../../db/stores/graphdata/graph-data-store.js';
import type { Session } from '../../auth/session.js';

/** What POST /api/v2/clear-database asks for (BloodHound's DatabaseWipe). */
export interface ClearRequest {
  deleteCollectedGraphData?: boolean | null;
  /** Source kind ids (GET /api/v2/graphs/source-kinds); 0 means the nodes of no source kind. */
  deleteSourceKinds?: readonly number[] | null;
  deleteRelationships?: readonly string[] | null;
  deleteFileIngestHistory?: boolean | null;
  deleteDataQualityHistory?: boolean | null;
  /** Zone/label ids whose custom selectors go (their default selectors stay). */
  deleteAssetGroupSelectors?: readonly number[] | null;
}

export interface ClearResult {
  nodesDeleted: number;
  edgesDeleted: number;
  ingestJobsDeleted: number;
  dataQualityDeleted: number;
  selectorsDeleted: number;
  analysisRequested: boolean;
}

const CONTEXT = 'clear-database';
const KIND = /^[A-Za-z0-9_]{1,100}$/;

/**
 * Clearing the database as BloodHound offers it, in one transaction under the pipeline's lock (no ingest or analysis
 * runs meanwhile): the graph (all of it, or by source kind), relationships by kind, the upload history, the data
 * quality history, custom selectors. The graph's generation moves with the write, so the path index and the node
 * memory rebuild; analysis is requested when graph data or selectors went, as BloodHound does.
 */
export function createClearDatabaseService(deps: {
  graph: GraphStore;
  store: GraphDataStore;
  /** The data pipeline's mutex (datapipe.withIngestLock). */
  withLock: <T>(fn: () => Promise<T>) => Promise<T>;
  requestAnalysis: (s: Session) => Promise<unknown>;
}) {
  return {
    async clear(req: ClearRequest, session: Session): Promise<ClearResult> {
      const kinds = [...new Set(req.deleteSourceKinds ?? [])];
      const relationships = [...new Set(req.deleteRelationships ?? [])];
      const selectors = [...new Set(req.deleteAssetGroupSelectors ?? [])];
      const all = req.deleteCollectedGraphData === true;
      if (
        !all &&
        !kinds.length &&
        !relationships.length &&
        !selectors.length &&
        !req.deleteFileIngestHistory &&
        !req.deleteDataQualityHistory
      )
        throw badRequest(CONTEXT, 'please select something to delete');
      if (all && kinds.length)
        throw badRequest(CONTEXT, 'request may only specify either deleteCollectedGraphData or deleteSourceKinds, not both');
      const bad = relationships.find((k) => !KIND.test(k));
      if (bad !== undefined) throw badRequest(CONTEXT, `deleteRelationships: "${bad.slice(0, 40)}" is not a relationship kind name.`);
      const sourceKinds = await deps.store.sourceKinds();
      const byId = new Map(sourceKinds.map((k) => [k.id, k.name]));
      const missing = kinds.find((id) => id !== 0 && !byId.has(id));
      if (missing !== undefined)
        throw badRequest(CONTEXT, `failure building delete request: requested source kind id ${missing} not found`);

      const result: ClearResult = {
        nodesDeleted: 0,
        edgesDeleted: 0,
        ingestJobsDeleted: 0,
        dataQualityDeleted: 0,
        selectorsDeleted: 0,
        analysisRequested: false,
      };
      await deps.withLock(() =>
        deps.graph.write(async (w) => {
          if (all || kinds.length) {
            // Counted inside the transaction: on the embedded store another connection would wait for it.
            const before = await deps.store.graphCounts(w.tx);
            if (all) await w.clearAll();
            else
              await w.deleteNodesOfKinds(
                kinds.filter((id) => id !== 0).map((id) => byId.get(id)!),
                kinds.includes(0) ? sourceKinds.map((k) => k.name) : undefined,
              );
            // What analysis derived from the deleted data goes with it; the run requested below draws it again.
            await deps.store.deleteEdgeSources(w.tx);
            const after = all ? { nodes: 0, edges: 0 } : await deps.store.graphCounts(w.tx);
            result.nodesDeleted = before.nodes - after.nodes;
            result.edgesDeleted = before.edges - after.edges;
          }
          if (relationships.length) result.edgesDeleted += await w.deleteEdgesOfKinds(relationships);
          if (req.deleteFileIngestHistory) result.ingestJobsDeleted = await deps.store.deleteIngestHistory(w.tx);
          if (req.deleteDataQualityHistory) result.dataQualityDeleted = await deps.store.deleteQuality(w.tx);
          if (selectors.length) result.selectorsDeleted = await deps.store.deleteCustomSelectors(selectors, w.tx);
        }),
      );
      if (all || kinds.length || selectors.length) {
        await deps.requestAnalysis(session);
        result.analysisRequested = true;
      }
      return result;
    },

    sourceKinds: () => deps.store.sourceKinds(),
  };
}

export type ClearDatabaseService = ReturnType<typeof createClearDatabaseService>;
