import type { Seed, SeedType } from '../../db/stores/zones/tags-store.js';
import { primaryKind } from '../../graph/kinds.js';
import type { GraphStore } from '../../graph/store.js';
import { seedMatches } from '../../analysis/steps/tier-zero.js';
import { AnalysisGraph } from '../../analysis/view.js';
import { cypherSeedNodes, type CypherSeedEngine } from './cypher-seeds.js';

/** A node a selector preview would select (BloodHound's AssetGroupMember of a preview). */
export interface PreviewMember {
  id: number;
  objectId: string;
  name: string;
  primaryKind: string;
  environmentId: string;
}

/** The nodes checked seeds select on the graph as it is now, at most `limit`, in seed order (object ids first). */
export async function previewSeeds(
  deps: { graph: GraphStore; cypher?: CypherSeedEngine },
  seeds: readonly Seed[],
  limit: number,
): Promise<PreviewMember[]> {
  const { graph } = deps;
  const of = (t: SeedType) => seeds.filter((x) => x.type === t).map((x) => x.value);
  const ids = new Set<number>();
  const add = (xs: readonly number[]) => {
    for (const x of xs) if (ids.size < limit && x > 0) ids.add(x);
  };
  add((await graph.nodesByObjectIds(of('objectid'))).map((n) => n.id));
  if (of('kind').length) add(await graph.nodeIdsWithKinds(of('kind')));
  if (of('rule').length && ids.size < limit) {
    const g = await AnalysisGraph.load(graph);
    for (const value of of('rule')) add(seedMatches(g, { type: 'rule', value }).map((n) => n.id));
  }
  if (ids.size < limit) add(await cypherSeedNodes(deps.cypher, of('cypher'), { limit: limit - ids.size }));
  const nodes = await graph.nodesByIds([...ids]);
  return nodes.map((n) => ({
    id: n.id,
    objectId: n.objectid,
    name: typeof n.properties.name === 'string' ? n.properties.name : n.objectid,
    primaryKind: primaryKind(n.kinds),
    environmentId: String(n.properties.domainsid ?? n.properties.tenantid ?? ''),
  }));
}
