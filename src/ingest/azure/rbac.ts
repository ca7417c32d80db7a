import { field, list, obj, str, type Obj } from '../fields.js';
import { s, up, type AzureOut, type Converter } from './emit.js';
import { KIND_BY_RBAC_ROLE } from './ids.js';

/**
 * Azure RBAC: who holds which role on which resource, and key vault access policies. AzureHound writes one record
 * kind per role and resource type (AZVMOwner, AZKeyVaultContributor, …) or, for the newer resource types, all of
 * a resource's role assignments (AZWebAppRoleAssignment, …); BloodHound turns each into an edge from the principal,
 * but only for assignments made on the resource itself.
 */

type ScopeRule = 'exact' | 'case-insensitive' | 'within';

/**
 * BloodHound's ResourceWithinScope: the scope is the resource, or a resource group holding it. Its resource-group
 * pattern escapes its character class twice, so the class holds only `\`, `w`, `d` and `/` and no real resource group
 * id matches; the same pattern is kept here so the same files give the same edges.
 */
const RESOURCE_GROUP_LEVEL = /^[\\wd/]*\/resourceGroups\/[0-9a-zA-Z]+$/;

function inScope(rule: ScopeRule, resource: string, scope: string): boolean {
  if (rule === 'exact') return resource === scope;
  if (resource.toLowerCase() === scope.toLowerCase()) return true;
  return rule === 'within' && RESOURCE_GROUP_LEVEL.test(scope) && resource.toLowerCase().startsWith(scope.toLowerCase());
}

/**
 * The roles AzureHound lists holders of, one record kind per resource type and role (`AZ<resource><role>`, e.g.
 * AZVMOwner): the record's list key (each entry wraps the role assignment under the key without its final "s") and
 * the edge the role grants.
 */
const HOLDER_ROLES = {
  Owner: ['owners', 'AZOwner'],
  UserAccessAdmin: ['userAccessAdmins', 'AZUserAccessAdministrator'],
  Contributor: ['contributors', 'AZContributor'],
  KVContributor: ['kvContributors', 'AZKeyVaultContributor'],
  VMContributor: ['vmContributors', 'AZVMContributor'],
  AvereContributor: ['avereContributors', 'AZAvereContributor'],
  AdminLogin: ['adminLogins', 'AZVMAdminLogin'],
} as const;

/** Per resource type: the record's resource id key, the roles listed, and how BloodHound matches a scope to it. */
const HOLDER_RESOURCES: { target: string; idKey: string; rule: ScopeRule; roles: (keyof typeof HOLDER_ROLES)[] }[] = [
  { target: 'AZKeyVault', idKey: 'keyVaultId', rule: 'exact', roles: ['Owner', 'UserAccessAdmin', 'Contributor', 'KVContributor'] },
  { target: 'AZManagementGroup', idKey: 'managementGroupId', rule: 'exact', roles: ['Owner', 'UserAccessAdmin'] },
  { target: 'AZResourceGroup', idKey: 'resourceGroupId', rule: 'exact', roles: ['Owner', 'UserAccessAdmin'] },
  { target: 'AZSubscription', idKey: 'subscriptionId', rule: 'exact', roles: ['Owner', 'UserAccessAdmin'] },
  {
    target: 'AZVM',
    idKey: 'virtualMachineId',
    rule: 'within',
    roles: ['Owner', 'UserAccessAdmin', 'Contributor', 'VMContributor', 'AdminLogin'],
  },
  // BloodHound's Avere Contributor converter compares the scope ignoring case but never looks at resource groups.
  { target: 'AZVM', idKey: 'virtualMachineId', rule: 'case-insensitive', roles: ['AvereContributor'] },
];

/**
 * A record `{<listKey>: [{<itemKey>: roleAssignment}], <idKey>: resourceId}` listing the holders of one role on one
 * resource; each holder whose assignment is scoped to the resource gets `edge` to it.
 */
function holders(listKey: string, idKey: string, target: string, edge: string, rule: ScopeRule): Converter {
  const itemKey = listKey.slice(0, -1);
  return (d, out) => {
    const resource = s(d, idKey);
    for (const entry of list(d, listKey)) {
      const props = obj(obj(entry, itemKey), 'properties');
      if (inScope(rule, resource, s(props, 'scope'))) out.edge(up(str(props, 'principalId')), 'AZBase', up(resource), target, edge);
    }
  };
}

/** The role edges every resource type takes. */
const BASE_EDGES = ['AZOwner', 'AZUserAccessAdministrator', 'AZContributor'];

/**
 * The newer resource types AzureHound writes all role assignments of in one record (`AZ<resource>RoleAssignment`),
 * with the role edge beyond owner, user access administrator and contributor that each takes.
 */
const ASSIGNMENT_RESOURCES: [string, ...string[]][] = [
  ['AZVMScaleSet', 'AZVMContributor'],
  ['AZFunctionApp', 'AZWebsiteContributor'],
  ['AZWebApp', 'AZWebsiteContributor'],
  ['AZLogicApp', 'AZLogicAppContributor'],
  ['AZAutomationAccount', 'AZAutomationContributor'],
  ['AZContainerRegistry'],
  ['AZManagedCluster', 'AZAKSContributor'],
];

/**
 * All role assignments on one resource (`{assignees: [{assignee, objectId, roleDefinitionId}], objectId}`): those
 * of a role whose edge the resource type takes, made on the resource itself, become that edge.
 */
function roleAssignmentsOn(target: string, ...extra: string[]): Converter {
  const edges = new Set([...BASE_EDGES, ...extra]);
  return (d, out) => {
    const resource = up(str(d, 'objectId'));
    // "assignees" is AzureHound's key; "roleAssignments" (the Go field's name) is accepted too.
    const entries = field(d, 'assignees') !== undefined ? list(d, 'assignees') : list(d, 'roleAssignments');
    for (const entry of entries) {
      const props = obj(obj(entry, 'assignee'), 'properties');
      const edge = KIND_BY_RBAC_ROLE[s(entry, 'roleDefinitionId').toLowerCase()];
      if (edge && edges.has(edge) && s(props, 'scope').toLowerCase() === s(entry, 'objectId').toLowerCase())
        out.edge(up(str(props, 'principalId')), 'AZBase', resource, target, edge);
    }
  };
}

const VAULT_READS: [string, string][] = [
  ['certificates', 'AZGetCertificates'],
  ['keys', 'AZGetKeys'],
  ['secrets', 'AZGetSecrets'],
];

/** A key vault access policy: a principal allowed "Get" on certificates, keys or secrets can read them. */
export function keyVaultAccessPolicy(d: Obj, out: AzureOut): void {
  const permissions = obj(d, 'permissions');
  for (const [key, edge] of VAULT_READS)
    if (list(permissions, key).includes('Get')) out.edge(up(str(d, 'objectId')), 'AZBase', up(str(d, 'keyVaultId')), 'AZKeyVault', edge);
}

/** The converter of every RBAC record kind, by kind: the two tables above, and key vault access policies. */
export const RBAC_CONVERTERS: Readonly<Record<string, Converter>> = Object.fromEntries([
  ...HOLDER_RESOURCES.flatMap(({ target, idKey, rule, roles }) =>
    roles.map((role) => {
      const [listKey, edge] = HOLDER_ROLES[role];
      return [`${target}${role}`, holders(listKey, idKey, target, edge, rule)];
    }),
  ),
  ...ASSIGNMENT_RESOURCES.map(([target, ...extra]) => [`${target}RoleAssignment`, roleAssignmentsOn(target, ...extra)]),
  ['AZKeyVaultAccessPolicy', keyVaultAccessPolicy],
]);
