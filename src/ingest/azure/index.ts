import { obj, str } from '../fields.js';
import type { Converted } from '../sharphound.js';
import { AzureOut, type Converter } from './emit.js';
import * as entra from './entra.js';
import * as links from './entra-links.js';
import * as roles from './entra-roles.js';
import * as rbac from './rbac.js';
import * as res from './resources.js';

/**
 * Every AzureHound record kind BloodHound converts (graphify azure_convertors.go), by kind. AzureHound also writes
 * kinds BloodHound ignores (storage accounts and containers, OAuth2 permission grants, Microsoft 365 groups); those
 * are counted as unknown and reported, like any kind not listed here.
 */
export const AZURE_CONVERTERS: Readonly<Record<string, Converter>> = {
  AZTenant: entra.tenant,
  AZUser: entra.user,
  AZGroup: entra.group,
  AZApp: entra.app,
  AZServicePrincipal: entra.servicePrincipal,
  AZDevice: entra.device,
  AZRole: entra.role,

  AZGroupMember: links.groupMembers,
  AZGroupOwner: links.groupOwners,
  AZAppOwner: links.appOwners,
  AZServicePrincipalOwner: links.servicePrincipalOwners,
  AZDeviceOwner: links.deviceOwners,
  AZAppRoleAssignment: links.appRoleAssignment,
  AZFederatedIdentityCredential: links.federatedIdentityCredentials,

  AZRoleAssignment: roles.roleAssignments,
  AZRoleEligibilityScheduleInstance: roles.roleEligibilityScheduleInstance,
  AZRoleManagementPolicyAssignment: roles.roleManagementPolicyAssignment,

  AZManagementGroup: res.managementGroup,
  AZManagementGroupDescendant: res.managementGroupDescendant,
  AZSubscription: res.subscription,
  AZResourceGroup: res.resourceGroup,
  AZKeyVault: res.keyVault,
  AZVM: res.virtualMachine,
  AZManagedCluster: res.managedCluster,
  AZVMScaleSet: res.namedResource('AZVMScaleSet'),
  AZFunctionApp: res.namedResource('AZFunctionApp'),
  AZWebApp: res.namedResource('AZWebApp'),
  AZLogicApp: res.namedResource('AZLogicApp'),
  AZAutomationAccount: res.namedResource('AZAutomationAccount'),
  AZContainerRegistry: res.namedResource('AZContainerRegistry'),

  ...rbac.RBAC_CONVERTERS,
};

/**
 * One AzureHound record (`{"kind": "AZUser", "data": {...}}`, an element of the file's `data` array) as nodes and
 * edges. Never throws on the record's content: a record of a kind we do not convert, or one that is not a
 * `{kind, data}` object, converts to nothing and sets `unknownKind` so the caller counts and reports it.
 */
export function convertAzure(item: unknown, now: string): Converted {
  const kind = str(item, 'kind');
  const out = new AzureOut(kind ?? '(no kind)', now);
  const data = obj(item, 'data');
  const convert = kind !== undefined && Object.hasOwn(AZURE_CONVERTERS, kind) ? AZURE_CONVERTERS[kind] : undefined;
  if (!kind) out.flag('not a {kind, data} record');
  else if (!convert) out.unknownKind = kind;
  else if (!data) out.flag('no "data" object');
  else convert(data, out);
  return { nodes: out.nodes, edges: out.edges, deletes: out.deletes, unknownKind: out.unknownKind };
}
