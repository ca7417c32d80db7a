import { runAnalysis } from '../src/analysis/run';
import { AZURE_STEPS } from '../src/analysis/steps/azure/index';
import { ROLE } from '../src/analysis/steps/azure/kinds';
import { hybridUsers } from '../src/analysis/steps/hybrid';
import { AnalysisGraph, Changes } from '../src/analysis/view';
import type { EdgeInput, NodeInput } from '../src/graph/model';
import { PgGraphStore } from '../src/graph/pg/store';
import { derivedEdges } from './analysis';
import { benchDatabase, ratio } from './harness';
import { peakRssMb } from './stats';

/**
 * Azure post-processing on a synthetic Entra tenant of BENCH_AZ_PRINCIPALS principals (default 50000: 80 % users,
 * 15 % groups, 5 % service principals, as many apps, a device per ten users, every built-in role the rules read,
 * 1 % of users (at most 200) holding a role directly, 50 role-assignable groups holding a role with three members each, three
 * memberships per user, half of the users
 * synced from AD users present in the graph, four MS Graph permission holders, PIM policies on some roles).
 * Baseline: writing the same graph through the store (upsert in 5,000-row batches, as ingest does), same run.
 */
export async function analysisAzureBench(): Promise<Record<string, unknown>> {
  const principals = Number(process.env.BENCH_AZ_PRINCIPALS ?? 50_000);
  const db = await benchDatabase();
  try {
    const store = new PgGraphStore(db.db);
    const { nodes, edges } = syntheticTenant(principals);
    const loadStarted = Date.now();
    for (let i = 0; i < nodes.length; i += 5000) await store.write((w) => w.upsertNodes(nodes.slice(i, i + 5000)));
    for (let i = 0; i < edges.length; i += 5000) await store.write((w) => w.upsertEdges(edges.slice(i, i + 5000)));
    const loadMs = Date.now() - loadStarted;

    // The in-memory part alone: load the analysis view and run the Azure and hybrid rules, no write.
    const computeStarted = Date.now();
    const g = await AnalysisGraph.load(store);
    const c = new Changes(g, new Date().toISOString());
    for (const step of [...AZURE_STEPS, hybridUsers]) await step(g, c);
    const computeMs = Date.now() - computeStarted;

    const heapBefore = process.memoryUsage().heapUsed;
    const result = await runAnalysis(store);
    return {
      storage: db.kind,
      principals,
      nodes: nodes.length,
      edges: edges.length,
      baseline_store_write_ms: loadMs,
      ours_analysis_ms: result.ms,
      of_which_load_and_rules_ms: computeMs,
      ...derivedEdges(result),
      heap_delta_mb: Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e6),
      max_rss_mb: peakRssMb(),
      ratio_analysis_to_write: ratio(result.ms, loadMs),
    };
  } finally {
    await db.close();
  }
}

function syntheticTenant(principals: number): { nodes: NodeInput[]; edges: EdgeInput[] } {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const T = 'BENCH-TENANT';
  const nodes: NodeInput[] = [{ objectid: T, kinds: ['AZBase', 'AZTenant'], properties: { name: 'BENCH.TEST', tenantid: T } }];
  const edges: EdgeInput[] = [];
  const add = (kind: string, id: string, props: Record<string, unknown> = {}) => {
    const objectid = `${T}-${id}`;
    nodes.push({ objectid, kinds: ['AZBase', kind], properties: { name: id, tenantid: T, ...props } });
    edges.push({ start: T, end: objectid, kind: 'AZContains', properties: {} });
    return objectid;
  };
  const edge = (start: string, end: string, kind: string) => edges.push({ start, end, kind, properties: {} });

  const roles = Object.values(ROLE).map((t, i) =>
    add('AZRole', `ROLE-${i}`, {
      templateid: t,
      ...(i % 5 === 0
        ? { enduserassignmentrequiresapproval: true, enduserassignmentuserapprovers: [], enduserassignmentgroupapprovers: [] }
        : {}),
    }),
  );
  const users = Array.from({ length: Math.round(principals * 0.8) }, (_, i) => {
    const synced = i % 2 === 0;
    const sid = `S-1-5-21-9-9-9-${1000 + i}`;
    if (synced) nodes.push({ objectid: sid, kinds: ['Base', 'User'], properties: { name: `AD${i}`, domainsid: 'S-1-5-21-9-9-9' } });
    return add('AZUser', `USER-${i}`, synced ? { onpremsyncenabled: true, onpremid: sid } : { onpremsyncenabled: false });
  });
  const groups = Array.from({ length: Math.round(principals * 0.15) }, (_, i) =>
    add('AZGroup', `GROUP-${i}`, { isassignabletorole: i % 10 === 0 }),
  );
  const sps = Array.from({ length: Math.round(principals * 0.05) }, (_, i) => add('AZServicePrincipal', `SP-${i}`));
  for (let i = 0; i < sps.length; i++) add('AZApp', `APP-${i}`);
  for (let i = 0; i < users.length / 10; i++) add('AZDevice', `DEV-${i}`, { operatingsystem: i % 3 ? 'Windows 11' : 'iOS' });

  // Three memberships per user in ordinary groups; role-assignable groups (every tenth of the first 500) hold a role.
  const ordinary = groups.filter((_, i) => i % 10 !== 0);
  for (const u of users) for (let k = 0; k < 3; k++) edge(u, pick(ordinary), 'AZMemberOf');
  for (let i = 0; i < Math.min(groups.length, 500); i += 10) {
    edge(groups[i]!, pick(roles), 'AZHasRole');
    for (let k = 0; k < 3; k++) edge(pick(users), groups[i]!, 'AZMemberOf');
  }
  for (let i = 0; i < Math.min(users.length / 100, 200); i++) edge(pick(users), pick(roles), 'AZHasRole');
  for (let i = 0; i < 20; i++) edge(pick(sps), pick(roles), 'AZHasRole');
  const msGraph = sps[0]!;
  for (const p of [
    'AZMGApplication_ReadWrite_All',
    'AZMGGroupMember_ReadWrite_All',
    'AZMGRoleManagement_ReadWrite_Directory',
    'AZMGAppRoleAssignment_ReadWrite_All',
  ])
    edge(pick(sps), msGraph, p);
  return { nodes, edges };
}
