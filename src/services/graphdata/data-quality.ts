import { badRequest } from '../../errors.js';
import {
  AD_KINDS,
  AZURE_KINDS,
  QUALITY_ORDER,
  type GraphDataStore,
  type Platform,
  type QualityRow,
} from '../../db/stores/graphdata/graph-data-store.js';

/** BloodHound's activity window: principals whose last logon is within 14 days of the newest one count. */
const ACTIVE_WINDOW_S = 14 * 24 * 3600;
/** Rights that show a computer's local groups were collected (BloodHound's FetchLocalGroupCompleteness). */
const LOCAL_GROUP_EDGES = ['AdminTo', 'CanRDP', 'CanPSRemote', 'ExecuteDCOM', 'CanBackup'];
/** BloodHound's default window of the history endpoints: the last 30 days. */
const DEFAULT_WINDOW_MS = 30 * 24 * 3600 * 1000;
const MAX_LIMIT = 1000;

export interface HistoryInput {
  start?: Date | null;
  end?: Date | null;
  sortBy?: string | null;
  skip?: number | null;
  limit?: number | null;
}

export interface HistoryPage {
  start: Date;
  end: Date;
  skip: number;
  limit: number;
  total: number;
  rows: QualityRow[];
}

/**
 * Completeness as BloodHound computes it: of the enabled principals active within 14 days of the most recent logon,
 * the share that an edge of the covering kinds points at. Per environment and over all of them (`null`).
 */
function completeness(rows: { env: string | null; t: number; covered: boolean }[]): Map<string | null, number> {
  const groups = new Map<string | null, { t: number; covered: boolean }[]>([[null, []]]);
  for (const r of rows) {
    groups.get(null)!.push(r);
    if (r.env) (groups.get(r.env) ?? groups.set(r.env, []).get(r.env)!).push(r);
  }
  const out = new Map<string | null, number>();
  for (const [env, list] of groups) {
    const newest = list.reduce((m, r) => Math.max(m, r.t), 0);
    const active = list.filter((r) => r.t >= newest - ACTIVE_WINDOW_S);
    out.set(env, active.length ? active.filter((r) => r.covered).length / active.length : 0);
  }
  return out;
}

/** Data quality and completeness: counted after every analysis, kept as history per domain, tenant and platform. */
export function createDataQualityService(deps: { store: GraphDataStore; clock: () => Date }) {
  const { store } = deps;

  async function countsBy(envProperty: string, kinds: Record<string, string>) {
    const byKind = Object.fromEntries(Object.entries(kinds).map(([col, kind]) => [kind, col]));
    const envs = new Map<string, Record<string, number>>();
    const row = (env: string) => envs.get(env) ?? envs.set(env, Object.fromEntries(Object.keys(kinds).map((c) => [c, 0]))).get(env)!;
    for (const c of await store.nodeCounts(envProperty, Object.values(kinds))) row(c.env)[byKind[c.kind]!] = c.n;
    const edges = await store.edgeCounts(envProperty);
    return { envs, row, edges };
  }

  const sum = (rows: Record<string, number>[], keys: string[]) =>
    Object.fromEntries(keys.map((k) => [k, rows.reduce((s, r) => s + (r[k] ?? 0), 0)]));

  return {
    /** Counts the graph as analysis left it and records one row per domain, per tenant and per platform. */
    async record(runId: string): Promise<void> {
      const at = deps.clock();
      const ad = await countsBy('domainsid', AD_KINDS);
      for (const e of ad.edges) Object.assign(ad.row(e.env), { acls: e.acls, sessions: e.sessions, relationships: e.relationships });
      const sessions = completeness(await store.activity('User', ['HasSession'], false));
      const localGroups = completeness(await store.activity('Computer', LOCAL_GROUP_EDGES, true));
      const adRows = [...ad.envs].map(([env, counts]) => ({
        environment: env,
        counts: {
          acls: 0,
          sessions: 0,
          relationships: 0,
          ...counts,
          session_completeness: sessions.get(env) ?? 0,
          local_group_completeness: localGroups.get(env) ?? 0,
        },
      }));
      const adKeys = [...Object.keys(AD_KINDS), 'acls', 'sessions', 'relationships'];
      await store.insertStats('ad', adRows, runId, at);
      if (adRows.length)
        await store.insertStats(
          'ad',
          [
            {
              environment: null,
              counts: {
                domains: adRows.length,
                ...sum(
                  adRows.map((r) => r.counts),
                  adKeys,
                ),
                session_completeness: sessions.get(null) ?? 0,
                local_group_completeness: localGroups.get(null) ?? 0,
              },
            },
          ],
          runId,
          at,
        );

      const az = await countsBy('tenantid', AZURE_KINDS);
      for (const e of az.edges) if (az.envs.has(e.env)) az.row(e.env).relationships = e.relationships;
      const azRows = [...az.envs].map(([env, counts]) => ({ environment: env, counts: { relationships: 0, ...counts } }));
      await store.insertStats('azure', azRows, runId, at);
      if (azRows.length)
        await store.insertStats(
          'azure',
          [
            {
              environment: null,
              counts: {
                tenants: azRows.length,
                ...sum(
                  azRows.map((r) => r.counts),
                  [...Object.keys(AZURE_KINDS), 'relationships'],
                ),
              },
            },
          ],
          runId,
          at,
        );
    },

    /** GET /api/v2/completeness: over the whole graph, now. */
    async completeness(): Promise<{ sessionCompleteness: number; localGroupCompleteness: number }> {
      const sessions = completeness(await store.activity('User', ['HasSession'], false));
      const localGroups = completeness(await store.activity('Computer', LOCAL_GROUP_EDGES, true));
      return { sessionCompleteness: sessions.get(null) ?? 0, localGroupCompleteness: localGroups.get(null) ?? 0 };
    },

    /** The history endpoints: one environment (null: the platform's aggregate) over a time window. */
    async history(context: string, platform: Platform, environment: string | null, input: HistoryInput): Promise<HistoryPage> {
      const end = input.end ?? deps.clock();
      const start = input.start ?? new Date(end.getTime() - DEFAULT_WINDOW_MS);
      if (start > end) throw badRequest(context, 'start must not be after end.');
      const order = input.sortBy ?? 'created_at';
      if (!(order in QUALITY_ORDER))
        throw badRequest(
          context,
          'The column specified for sorting is not sortable: use created_at or updated_at (- first for descending).',
        );
      const skip = input.skip ?? 0;
      const limit = input.limit ?? MAX_LIMIT;
      if (skip < 0) throw badRequest(context, 'skip must be zero or more.');
      if (limit < 1 || limit > MAX_LIMIT) throw badRequest(context, `limit must be between 1 and ${MAX_LIMIT}.`);
      const { total, rows } = await store.listStats({ platform, environment, start, end, order, skip, limit });
      return { start, end, skip, limit, total, rows };
    },
  };
}

export type DataQualityService = ReturnType<typeof createDataQualityService>;
