import DataLoader from 'dataloader';
import type { EventModel } from '../../db/stores/collectors/events-store.js';
import type { ClientErrorModel, DomainResultModel, JobModel } from '../../db/stores/collectors/jobs-store.js';
import type { GraphNode } from '../../graph/model.js';
import type { GraphStore } from '../../graph/store.js';
import type { CollectionJobsService } from './collection-jobs.js';
import type { EventsService } from './events.js';
import { lookUpRefs, type ObjectRef } from './object-refs.js';

function groupBy<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const groups = new Map<K, V[]>(keys.map((k) => [k, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((k) => groups.get(k)!);
}

/**
 * Per-request batch loaders for fields that lists repeat (an event's OUs, a job's results): one query per field
 * and request instead of one per row.
 */
export function createLoaders(d: { graph: GraphStore; events: EventsService; jobs: CollectionJobsService }) {
  return {
    refs: new DataLoader<string, ObjectRef>(async (ids) => {
      const found = await lookUpRefs(d.graph, ids);
      return ids.map((id) => found.get(id)!);
    }),
    eventsOfClient: new DataLoader<string, EventModel[]>(async (ids) => groupBy(ids, await d.events.forClients(ids), (e) => e.clientId)),
    runningJob: new DataLoader<string, JobModel | null>(async (ids) => {
      const running = new Map((await d.jobs.runningOf(ids)).map((j) => [j.clientId, j]));
      return ids.map((id) => running.get(id) ?? null);
    }),
    domainResults: new DataLoader<number, DomainResultModel[]>(async (ids) =>
      groupBy(ids, await d.jobs.domainResults(ids), (r) => r.jobId),
    ),
    jobErrors: new DataLoader<number, ClientErrorModel[]>(async (ids) => groupBy(ids, await d.jobs.errors(ids), (r) => r.jobId!)),
    /** Nodes by (upper-case) object id, for list entries that show their properties. */
    nodeByObjectId: new DataLoader<string, GraphNode | null>(async (ids) => {
      const found = new Map((await d.graph.nodesByObjectIds(ids)).map((n) => [n.objectid, n]));
      return ids.map((id) => found.get(id) ?? null);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
