import type { RestResponse } from '../route.js';
import { notFound } from '../../errors.js';
import { DATAPIPE_STATE, FILE_STATUS, JOB_STATUS } from '../../services/common/job-status.js';
import { enumValue } from '../../services/common/enums.js';
import { time } from '../shapes.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
import type {
  DatapipeStatusQuery,
  JobFieldsFragment,
  NodeListFieldsFragment,
  ShortestPathsQuery,
  UploadJobFilesQuery,
} from '../../generated/operations.js';

/** NodeList → the API document's pagination envelope of paged node list entries. */
export const nodeList = (l: NodeListFieldsFragment): RestResponse => ({
  body: {
    count: l.totalCount,
    skip: l.skip,
    limit: l.limit,
    data: l.nodes.map((n) => ({ objectID: n.objectId, name: n.name, label: n.label, kinds: n.kinds })),
  },
});

/** A path result: the Graph under `data`; how many paths and whether the cap cut them, as headers. */
export const paths = (p: ShortestPathsQuery['shortestPaths']): RestResponse => ({
  body: { data: p.graph },
  headers: { 'Path-Count': String(p.pathCount), 'Paths-Truncated': String(p.truncated) },
});

/** BloodHound's shortest-path answer: nodes keyed by id, edges as a list; 404 when there is no path. */
export const pathGraph = (p: Json): RestResponse => {
  const headers = { 'Path-Count': String(p.pathCount), 'Paths-Truncated': String(p.truncated) };
  if (!p.pathCount) {
    throw notFound('pathfinding', 'Path not found.');
  }
  return { body: { data: graphResponse(p) }, headers };
};

/** BloodHound's GraphResponse: nodes keyed by id (its UnifiedNode), edges as a list (UnifiedEdge). */
export const graphResponse = (p: Json): { nodes: Record<string, unknown>; edges: unknown[] } => {
  const nodes = Object.fromEntries(
    p.nodes.map((n: Json) => [
      String(n.id),
      {
        label: n.name ?? n.objectId,
        kind: n.label,
        kinds: n.kinds,
        objectId: n.objectId,
        isTierZero: n.kinds.includes('Tag_Tier_Zero'),
        // BloodHound's UnifiedNode: owned is the Tag_Owned kind (nothing here assigns it yet).
        isOwnedObject: n.kinds.includes('Tag_Owned'),
        lastSeen: n.properties.lastseen ?? '',
        properties: n.properties,
      },
    ]),
  );
  const edges = p.edges.map((e: Json) => ({
    source: String(e.source),
    target: String(e.target),
    label: e.kind,
    kind: e.kind,
    lastSeen: e.properties.lastseen ?? '',
    properties: e.properties,
  }));
  return { nodes, edges };
};

export const job = (j: JobFieldsFragment) => ({
  id: j.id,
  user_id: j.userId,
  client_id: j.clientId,
  status: enumValue(JOB_STATUS, j.status),
  status_message: j.statusMessage,
  start_time: j.startTime,
  end_time: time(j.endTime),
  last_ingest: time(j.lastIngest),
  total_files: j.totalFiles,
  failed_files: j.failedFiles,
});

export const datapipe = (s: DatapipeStatusQuery['datapipeStatus']) => ({
  status: enumValue(DATAPIPE_STATE, s.status),
  analysis_requested: s.analysisRequested,
  updated_at: s.updatedAt,
  last_complete_analysis_at: time(s.lastCompleteAnalysisAt),
  last_analysis_run_at: time(s.lastAnalysisRunAt),
});

export const file = (f: UploadJobFilesQuery['uploadJob']['files'][number]) => ({
  id: f.id,
  file_name: f.fileName,
  content_type: f.contentType,
  size_bytes: f.sizeBytes,
  status: enumValue(FILE_STATUS, f.status),
  errors: f.error ? [f.error] : [],
  result: f.result,
});
