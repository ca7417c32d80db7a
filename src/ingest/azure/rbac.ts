import { field, list, obj, str, type Obj } from '../fields.js';
import { s, up, type AzureOut } from './emit.js';
import { KIND_BY_RBAC_ROLE, RBAC } from './ids.js';

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
 * A record `{<listKey>: [{<itemKey>: roleAssignment}], <idKey>: resourceId}` listing the holders of one role on one
 * resource; each holder whose assignment is scoped to the resource gets `edge` to it.
 */
function holders(listKey: string, itemKey: string, idKey: string, target: string, edge: string, rule: ScopeRule) {
  return (d: Obj, out: AzureOut): void => {
    const resource = s(d, idKey);
    for (const entry of list(d, listKey)) {
      const props = obj(obj(entry, itemKey), 'properties');
      if (inScope(rule, resource, s(props, 'scope'))) out.edge(up(str(props, 'principalId')), 'AZBase', up(resource), target, edge);
    }
  };
}

export const keyVaultOwners = holders('owners', 'owner', 'keyVaultId', 'AZKeyVault', 'AZOwner', 'exact');
export const keyVaultUserAccessAdmins = holders(
  'userAccessAdmins',
  'userAccessAdmin',
  'keyVaultId',
  'AZKeyVault',
  'AZUserAccessAdministrator',
  'exact',
);
export const keyVaultContributors = holders('contributors', 'contributor', 'keyVaultId', 'AZKeyVault', 'AZContributor', 'exact');
export const keyVaultKVContributors = holders(
  'kvContributors',
  'kvContributor',
  'keyVaultId',
  'AZKeyVault',
  'AZKeyVaultContributor',
  'exact',
);

export const managementGroupOwners = holders('owners', 'owner', 'managementGroupId', 'AZManagementGroup', 'AZOwner', 'exact');
export const managementGroupUserAccessAdmins = holders(
  'userAccessAdmins',
  'userAccessAdmin',
  'managementGroupId',
  'AZManagementGroup',
  'AZUserAccessAdministrator',
  'exact',
);

export const resourceGroupOwners = holders('owners', 'owner', 'resourceGroupId', 'AZResourceGroup', 'AZOwner', 'exact');
export const resourceGroupUserAccessAdmins = holders(
  'userAccessAdmins',
  'userAccessAdmin',
  'resourceGroupId',
  'AZResourceGroup',
  'AZUserAccessAdministrator',
  'exact',
);

export const subscriptionOwners = holders('owners', 'owner', 'subscriptionId', 'AZSubscription', 'AZOwner', 'exact');
export const subscriptionUserAccessAdmins = holders(
  'userAccessAdmins',
  'userAccessAdmin',
  'subscriptionId',
  'AZSubscription',
  'AZUserAccessAdministrator',
  'exact',
);

export const vmAdminLogins = holders('adminLogins', 'adminLogin', 'virtualMachineId', 'AZVM', 'AZVMAdminLogin', 'within');
export const vmAvereContributors = holders(
  'avereContributors',
  'avereContributor',
  'virtualMachineId',
  'AZVM',
  'AZAvereContributor',
  'case-insensitive',
);
export const vmContributors = holders('contributors', 'contributor', 'virtualMachineId', 'AZVM', 'AZContributor', 'within');
export const vmVMContributors = holders('vmContributors', 'vmContributor', 'virtualMachineId', 'AZVM', 'AZVMContributor', 'within');
export const vmOwners = holders('owners', 'owner', 'virtualMachineId', 'AZVM', 'AZOwner', 'within');
export const vmUserAccessAdmins = holders(
  'userAccessAdmins',
  'userAccessAdmin',
  'virtualMachineId',
  'AZVM',
  'AZUserAccessAdministrator',
  'within',
);

const BASE_ROLES = [RBAC.owner, RBAC.userAccessAdmin, RBAC.contributor];

/**
 * All role assignments on one resource (`{assignees: [{assignee, objectId, roleDefinitionId}], objectId}`): the
 * roles in `roles` that are assigned on the resource itself become edges named after the role.
 */
function roleAssignmentsOn(target: string, ...extra: string[]) {
  const roles = new Set([...BASE_ROLES, ...extra]);
  return (d: Obj, out: AzureOut): void => {
    const resource = up(str(d, 'objectId'));
    // "assignees" is AzureHound's key; "roleAssignments" (the Go field's name) is accepted too.
    const entries = field(d, 'assignees') !== undefined ? list(d, 'assignees') : list(d, 'roleAssignments');
    for (const entry of entries) {
      const props = obj(obj(entry, 'assignee'), 'properties');
      const role = s(entry, 'roleDefinitionId').toLowerCase();
      if (roles.has(role) && s(props, 'scope').toLowerCase() === s(entry, 'objectId').toLowerCase())
        out.edge(up(str(props, 'principalId')), 'AZBase', resource, target, KIND_BY_RBAC_ROLE[role]!);
    }
  };
}

export const vmScaleSetRoleAssignments = roleAssignmentsOn('AZVMScaleSet', RBAC.vmContributor);
export const functionAppRoleAssignments = roleAssignmentsOn('AZFunctionApp', RBAC.websiteContributor);
export const webAppRoleAssignments = roleAssignmentsOn('AZWebApp', RBAC.websiteContributor);
export const logicAppRoleAssignments = roleAssignmentsOn('AZLogicApp', RBAC.logicAppContributor);
export const automationAccountRoleAssignments = roleAssignmentsOn('AZAutomationAccount', RBAC.automationContributor);
export const containerRegistryRoleAssignments = roleAssignmentsOn('AZContainerRegistry');
export const managedClusterRoleAssignments = roleAssignmentsOn('AZManagedCluster', RBAC.aksContributor);

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
