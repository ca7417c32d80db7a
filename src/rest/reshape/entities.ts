import type { NodeListFieldsFragment } from '../../generated/operations.js';
import type { RestResponse } from '../route.js';
import { data } from '../route.js';

/**
 * BloodHound's entity envelopes (cmd/api/src/api/v2/ad_entity.go, azure.go and packages/go/analysis/azure/model.go
 * in SpecterOps/BloodHound). Our list keys are one camelCase spelling per list (GraphQL's EntityListName); the REST
 * answers spell the count keys as BloodHound's handler for that entity type does.
 */

const TIER_ZERO = 'Tag_Tier_Zero';
const OWNED = 'Tag_Owned';

type Counts = { list: string; count: number }[] | undefined;
interface EntityInfo {
  kind: string;
  lists?: string[];
  node: { kinds: string[]; properties: unknown };
  counts?: Counts;
}

/** AD count keys BloodHound spells differently from our list key, per entity kind ('*' for every kind). */
const AD_KEYS: Record<string, Record<string, string>> = {
  '*': {
    pkiHierarchy: 'pki-hierarchy',
    publishedTemplates: 'published-templates',
    publishedToCAs: 'published-to-cas',
    trustedCAs: 'trusted-cas',
  },
  Group: { groupMembership: 'membership' },
  Computer: { constrainedDelegation: 'constrainedPrivs' },
};

const adKey = (kind: string, list: string) => AD_KEYS[kind]?.[list] ?? AD_KEYS['*']![list] ?? list;

/**
 * `GET /api/v2/<type>/{id}`: `{data: {props, <count>: n…}}`. BloodHound marks a Tier Zero node with
 * `props.isTierZero` when it answers without counts; `kinds` is ours (BloodHound has no kinds here).
 */
export function adInfo(e: EntityInfo): RestResponse {
  // Object.assign, not a spread the next line may add to (see graph/format.ts).
  const props: Record<string, unknown> = Object.assign({}, e.node.properties);
  if (!e.counts && e.node.kinds.includes(TIER_ZERO)) props.isTierZero = true;
  return data({
    kinds: e.node.kinds,
    props,
    ...Object.fromEntries((e.counts ?? []).map((c) => [adKey(e.kind, c.list), c.count])),
  });
}

/** Azure count keys (BloodHound's *Details structs); the descendant lists go to `descendents.descendent_counts`. */
const AZ_KEYS: Record<string, string> = {
  groupMembership: 'group_membership',
  members: 'group_members',
  inboundObjectControl: 'inbound_object_control',
  outboundObjectControl: 'outbound_object_control',
  activeAssignments: 'active_assignments',
  pimAssignments: 'pim_assignments',
  // A user's is `execution_privileges`; VMs' and devices' inbound ones keep BloodHound's camelCase.
  outboundExecutionPrivileges: 'execution_privileges',
};
/** Descendant list → the node kind BloodHound keys its descendant count by. */
const AZ_DESCENDANTS: Record<string, string> = {
  descendentUsers: 'AZUser',
  descendentGroups: 'AZGroup',
  descendentSubscriptions: 'AZSubscription',
  descendentResourceGroups: 'AZResourceGroup',
  descendentVirtualMachines: 'AZVM',
  descendentKeyVaults: 'AZKeyVault',
  descendentManagementGroups: 'AZManagementGroup',
  descendentApplications: 'AZApp',
  descendentServicePrincipals: 'AZServicePrincipal',
  descendentDevices: 'AZDevice',
};

/** BloodHound's serialised Azure node (azure.Node): display kind, kinds, tier zero and owned marks, props. */
export const azureNode = (kind: string, kinds: string[], properties: unknown) => ({
  kind,
  kinds,
  isTierZero: kinds.includes(TIER_ZERO),
  isOwnedObject: kinds.includes(OWNED),
  props: properties,
});

/**
 * `GET /api/v2/azure/<type>?object_id=`: the node and its counts, as BloodHound's <Kind>Details. Without counts
 * BloodHound still serialises the struct: every count key 0 and `descendents.descendent_counts` null.
 */
export function azureInfo(e: EntityInfo): RestResponse {
  const counts: Record<string, unknown> = {};
  const descendants: Record<string, number> = {};
  for (const c of e.counts ?? (e.lists ?? []).map((list) => ({ list, count: 0 }))) {
    if (AZ_DESCENDANTS[c.list]) descendants[AZ_DESCENDANTS[c.list]!] = c.count;
    else counts[AZ_KEYS[c.list] ?? c.list] = c.count;
  }
  if (Object.keys(descendants).length) counts.descendents = { descendent_counts: e.counts ? descendants : null };
  return data(Object.assign(azureNode(e.kind, e.node.kinds, e.node.properties), counts));
}

type Page = Omit<NodeListFieldsFragment, 'nodes'> & { nodes: { label: string; kinds: string[]; properties: unknown }[] };

/** An Azure related-entity list: BloodHound's pagination envelope of azure.Node items. */
export const azureList = (l: Page): RestResponse => ({
  body: { count: l.totalCount, skip: l.skip, limit: l.limit, data: l.nodes.map((n) => azureNode(n.label, n.kinds, n.properties)) },
});
