import type { Queryable } from '../../pool.js';

/**
 * The graph's data as BloodHound users manage it (migration 0065): source kinds, the data quality history, and the
 * rows clear-database removes besides the graph itself. Counting statements read the graph tables directly: they
 * run once per analysis, not per request.
 */

export interface SourceKindModel {
  id: number;
  name: string;
}

export type Platform = 'ad' | 'azure';

export interface QualityRow {
  id: number;
  platform: Platform;
  environment: string | null;
  runId: string;
  counts: Record<string, number>;
  createdAt: Date;
  updatedAt: Date;
}

/** Node kinds counted per AD domain / Azure tenant, under BloodHound's column names. */
export const AD_KINDS: Record<string, string> = {
  users: 'User',
  groups: 'Group',
  computers: 'Computer',
  ous: 'OU',
  containers: 'Container',
  gpos: 'GPO',
  aiacas: 'AIACA',
  rootcas: 'RootCA',
  enterprisecas: 'EnterpriseCA',
  ntauthstores: 'NTAuthStore',
  certtemplates: 'CertTemplate',
  issuancepolicies: 'IssuancePolicy',
};
export const AZURE_KINDS: Record<string, string> = {
  users: 'AZUser',
  groups: 'AZGroup',
  apps: 'AZApp',
  service_principals: 'AZServicePrincipal',
  devices: 'AZDevice',
  management_groups: 'AZManagementGroup',
  subscriptions: 'AZSubscription',
  resource_groups: 'AZResourceGroup',
  vms: 'AZVM',
  key_vaults: 'AZKeyVault',
  automation_accounts: 'AZAutomationAccount',
  container_registries: 'AZContainerRegistry',
  function_apps: 'AZFunctionApp',
  logic_apps: 'AZLogicApp',
  managed_clusters: 'AZManagedCluster',
  vm_scale_sets: 'AZVMScaleSet',
  web_apps: 'AZWebApp',
};

const SOURCE_KINDS = /* SQL */ `-- graphdata.sourceKinds
select id, name from graph_source_kinds order by id`;

// Nodes per environment (domain SID or tenant id, by the property $1 names) and kind.
const NODE_COUNTS = /* SQL */ `-- graphdata.nodeCounts
select n.properties ->> $1::text as env, k.name as kind, count(*)::int as n
from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids)
where k.name = any($2::text[]) and n.properties ? $1::text
group by 1, 2`;

// Edges per environment of their end node: all, ACEs, sessions.
const EDGE_COUNTS = /* SQL */ `-- graphdata.edgeCounts
select t.properties ->> $1::text as env, count(*)::int as relationships,
       count(*) filter (where e.properties ->> 'isacl' = 'true')::int as acls,
       count(*) filter (where k.name = 'HasSession')::int as sessions
from graph_edges e join graph_nodes t on t.id = e.end_id join graph_kinds k on k.id = e.kind_id
where t.properties ? $1::text
group by 1`;

// Enabled principals of a kind with a last logon, and whether an edge of the given kinds points at them.
const ACTIVITY = /* SQL */ `-- graphdata.activity
select n.properties ->> 'domainsid' as env, (n.properties ->> 'lastlogontimestamp')::float8 as t,
       exists (select 1 from graph_edges e join graph_kinds ek on ek.id = e.kind_id
               where e.end_id = n.id and ek.name = any($2::text[])) as covered
from graph_nodes n
where n.kind_ids && array(select k.id from graph_kinds k where k.name = $1::text)
  and n.properties ->> 'enabled' = 'true' and jsonb_typeof(n.properties -> 'lastlogontimestamp') = 'number'
  and ($3::boolean is false or upper(n.properties ->> 'operatingsystem') like '%WINDOWS%')`;

const INSERT_STAT = /* SQL */ `-- graphdata.insertStat
insert into data_quality_stats (platform, environment, run_id, counts, created_at, updated_at)
select $1, unnest($2::text[]), $3, unnest($4::jsonb[]), $5, $5`;

const LIST_STATS = /* SQL */ `-- graphdata.listStats
select id, platform, environment, run_id as "runId", counts, created_at as "createdAt", updated_at as "updatedAt",
       count(*) over ()::int as total
from data_quality_stats
where platform = $1 and environment is not distinct from $2 and created_at >= $3 and created_at <= $4
order by %ORDER% offset $5 limit $6`;

// Upload history: jobs that are over (not still receiving files, ingesting or analysing).
const DELETE_INGEST_HISTORY = /* SQL */ `-- graphdata.deleteIngestHistory
delete from ingest_jobs where status not in (0, 1, 6, 7)`;
const DELETE_QUALITY = /* SQL */ `-- graphdata.deleteQuality
delete from data_quality_stats`;
const DELETE_EDGE_SOURCES = /* SQL */ `-- graphdata.deleteEdgeSources
delete from graph_edge_sources`;
// Custom selectors of the given zones/labels; the seeded default selectors stay (as BloodHound's system selectors).
const DELETE_CUSTOM_SELECTORS = /* SQL */ `-- graphdata.deleteCustomSelectors
delete from asset_group_tag_selectors where asset_group_tag_id = any($1::int[]) and not is_default`;

const GRAPH_COUNTS = /* SQL */ `-- graphdata.graphCounts
select (select count(*) from graph_nodes)::int as nodes, (select count(*) from graph_edges)::int as edges`;

/** Sort orders data quality lists accept (BloodHound: created_at and updated_at, either way). */
export const QUALITY_ORDER: Record<string, string> = {
  created_at: 'created_at, id',
  '-created_at': 'created_at desc, id desc',
  updated_at: 'updated_at, id',
  '-updated_at': 'updated_at desc, id desc',
};

export function createGraphDataStore(db: Queryable) {
  return {
    sourceKinds: () => db.query<SourceKindModel>(SOURCE_KINDS),

    async nodeCounts(envProperty: string, kinds: readonly string[]): Promise<{ env: string; kind: string; n: number }[]> {
      return db.query(NODE_COUNTS, [envProperty, kinds]);
    },
    async edgeCounts(envProperty: string): Promise<{ env: string; relationships: number; acls: number; sessions: number }[]> {
      return db.query(EDGE_COUNTS, [envProperty]);
    },
    /** For completeness: `kind` principals, `covering` the edge kinds that count, `windows` only Windows hosts. */
    async activity(
      kind: string,
      covering: readonly string[],
      windows: boolean,
    ): Promise<{ env: string | null; t: number; covered: boolean }[]> {
      return db.query(ACTIVITY, [kind, covering, windows]);
    },

    async insertStats(platform: Platform, rows: { environment: string | null; counts: Record<string, number> }[], runId: string, at: Date) {
      if (!rows.length) return;
      await db.execute(INSERT_STAT, [platform, rows.map((r) => r.environment), runId, rows.map((r) => JSON.stringify(r.counts)), at]);
    },

    async listStats(q: {
      platform: Platform;
      environment: string | null;
      start: Date;
      end: Date;
      order: keyof typeof QUALITY_ORDER;
      skip: number;
      limit: number;
    }): Promise<{ total: number; rows: QualityRow[] }> {
      // The order comes from the allow-list above, never from request text.
      const sql = LIST_STATS.replace('%ORDER%', QUALITY_ORDER[q.order]!);
      const rows = await db.query<QualityRow & { total: number }>(sql, [q.platform, q.environment, q.start, q.end, q.skip, q.limit]);
      return { total: rows[0]?.total ?? 0, rows };
    },

    async graphCounts(q: Queryable = db): Promise<{ nodes: number; edges: number }> {
      return (await q.query<{ nodes: number; edges: number }>(GRAPH_COUNTS))[0]!;
    },
    deleteIngestHistory: (q: Queryable = db) => q.execute(DELETE_INGEST_HISTORY),
    deleteQuality: (q: Queryable = db) => q.execute(DELETE_QUALITY),
    deleteEdgeSources: (q: Queryable = db) => q.execute(DELETE_EDGE_SOURCES),
    deleteCustomSelectors: (tagIds: readonly number[], q: Queryable = db) => q.execute(DELETE_CUSTOM_SELECTORS, [tagIds]),
  };
}

export type GraphDataStore = ReturnType<typeof createGraphDataStore>;
