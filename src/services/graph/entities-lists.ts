import { ACL_KINDS, AZ_EDGE_KINDS, TIER_ZERO_KIND } from '../../graph/kinds.js';
import type { Traversal } from './entities-traverse.js';

/**
 * Every relationship list of BloodHound's entity panels, as data. A list has a key (its GraphQL enum value and
 * its count key in entity info), the REST segment BloodHound serves it under, the traversal behind it and the
 * kinds its results must have. Entity types (below) name the lists their panel shows. Adding a list is one line.
 */
export interface ListSpec {
  /** Count key in entity info and GraphQL `EntityListName` value (camelCase, as BloodHound's count keys). */
  key: string;
  /** REST sub-path segment under the entity (`/api/v2/users/{id}/<path>`), or Azure's related_entity_type. */
  path: string;
  traversal: Traversal;
  targets?: readonly string[];
  /** BloodHound rejects type=graph on the "contained" lists (no path delegate). */
  noGraph?: boolean;
}

const M = 'MemberOf';
const AZM = 'AZMemberOf';
const TRUSTS = ['SameForestTrust', 'CrossForestTrust', 'TrustedBy'];
const PKI = ['IssuedSignedBy', 'EnterpriseCAFor', 'RootCAFor', 'NTAuthStoreFor'];
/** Azure edges that give control over their target (everything but structure, membership and role assignment). */
const AZ_CONTROL: string[] = (AZ_EDGE_KINDS as readonly string[])
  .filter(
    (k) =>
      ![
        'AZContains',
        'AZMemberOf',
        'AZHasRole',
        'AZRunsAs',
        'AZRoleEligible',
        'AZRoleApprover',
        'AZAuthenticatesTo',
        'AZNodeResourceGroup',
      ].includes(k),
  )
  .concat([
    'AZAddMembers',
    'AZAddOwner',
    'AZAddSecret',
    'AZExecuteCommand',
    'AZGlobalAdmin',
    'AZGrant',
    'AZGrantSelf',
    'AZPrivilegedAuthAdmin',
    'AZPrivilegedRoleAdmin',
    'AZResetPassword',
    'AZMGAddMember',
    'AZMGAddOwner',
    'AZMGAddSecret',
    'AZMGGrantAppRoles',
    'AZMGGrantRole',
  ]);
const AZ_EXECUTION = ['AZVMAdminLogin', 'AZVMContributor', 'AZAvereContributor', 'AZExecuteCommand', 'AZContributor', 'AZOwner'];

const out = (edges: readonly string[]): Traversal => ({ shape: 'direct', dir: 'out', edges });
const inn = (edges: readonly string[]): Traversal => ({ shape: 'direct', dir: 'in', edges });
const rights = (edge: string): Traversal => ({ shape: 'viaMembership', dir: 'out', edges: [edge], membership: M });
const holders = (edges: readonly string[], membership = M): Traversal => ({ shape: 'viaMembership', dir: 'in', edges, membership });
const inDomain: Traversal = { shape: 'inDomain' };
const contained: Traversal = { shape: 'transitive', dir: 'out', edges: ['Contains'] };
const gpoAffected: Traversal = { shape: 'chain', first: ['GPLink'], then: ['Contains'] };
const azContained: Traversal = { shape: 'transitive', dir: 'out', edges: ['AZContains'] };
/** What an Azure container holds of one kind, transitively: BloodHound's list `descendent<Name>` at `descendent-<path>`. */
const azDescendants = (name: string, path: string, kind: string): ListSpec => ({
  key: `descendent${name}`,
  path: `descendent-${path}`,
  traversal: azContained,
  targets: [kind],
});

/** The lists, by id (ids differ where one key means different traversals on different kinds, e.g. sessions). */
export const LISTS = {
  userSessions: { key: 'sessions', path: 'sessions', traversal: inn(['HasSession']), targets: ['Computer'] },
  computerSessions: { key: 'sessions', path: 'sessions', traversal: out(['HasSession']), targets: ['User'] },
  groupSessions: {
    key: 'sessions',
    path: 'sessions',
    traversal: { shape: 'ofMembers', membership: M, dir: 'in', edges: ['HasSession'] },
    targets: ['Computer'],
  },
  groupMembership: { key: 'groupMembership', path: 'memberships', traversal: { shape: 'transitive', dir: 'out', edges: [M] } },
  computerGroupMembership: { key: 'groupMembership', path: 'group-membership', traversal: { shape: 'transitive', dir: 'out', edges: [M] } },
  members: { key: 'members', path: 'members', traversal: { shape: 'transitive', dir: 'in', edges: [M] } },
  adminRights: { key: 'adminRights', path: 'admin-rights', traversal: rights('AdminTo'), targets: ['Computer'] },
  rdpRights: { key: 'rdpRights', path: 'rdp-rights', traversal: rights('CanRDP'), targets: ['Computer'] },
  dcomRights: { key: 'dcomRights', path: 'dcom-rights', traversal: rights('ExecuteDCOM'), targets: ['Computer'] },
  psRemoteRights: { key: 'psRemoteRights', path: 'ps-remote-rights', traversal: rights('CanPSRemote'), targets: ['Computer'] },
  backupRights: { key: 'backupRights', path: 'backup-rights', traversal: rights('CanBackup'), targets: ['Computer'] },
  sqlAdminRights: { key: 'sqlAdmin', path: 'sql-admin-rights', traversal: out(['SQLAdmin']) },
  constrainedDelegationRights: {
    key: 'constrainedDelegation',
    path: 'constrained-delegation-rights',
    traversal: out(['AllowedToDelegate']),
  },
  controllables: {
    key: 'controllables',
    path: 'controllables',
    traversal: { shape: 'viaMembership', dir: 'out', edges: ACL_KINDS, membership: M },
  },
  controllers: { key: 'controllers', path: 'controllers', traversal: holders(ACL_KINDS) },
  gpos: { key: 'gpos', path: 'gpos', traversal: { shape: 'gposApplying' } },
  adminUsers: { key: 'adminUsers', path: 'admin-users', traversal: holders(['AdminTo']) },
  rdpUsers: { key: 'rdpUsers', path: 'rdp-users', traversal: holders(['CanRDP']) },
  dcomUsers: { key: 'dcomUsers', path: 'dcom-users', traversal: holders(['ExecuteDCOM']) },
  psRemoteUsers: { key: 'psRemoteUsers', path: 'ps-remote-users', traversal: holders(['CanPSRemote']) },
  backupOperators: { key: 'backupOperators', path: 'backup-operators', traversal: holders(['CanBackup']) },
  sqlAdmins: { key: 'sqlAdminUsers', path: 'sql-admins', traversal: inn(['SQLAdmin']) },
  constrainedUsers: { key: 'constrainedUsers', path: 'constrained-users', traversal: inn(['AllowedToDelegate']) },
  domainUsers: { key: 'users', path: 'users', traversal: inDomain, targets: ['User'], noGraph: true },
  domainGroups: { key: 'groups', path: 'groups', traversal: inDomain, targets: ['Group'], noGraph: true },
  domainComputers: { key: 'computers', path: 'computers', traversal: inDomain, targets: ['Computer'], noGraph: true },
  domainOUs: { key: 'ous', path: 'ous', traversal: inDomain, targets: ['OU'], noGraph: true },
  domainGPOs: { key: 'gpos', path: 'gpos', traversal: inDomain, targets: ['GPO'], noGraph: true },
  foreignUsers: { key: 'foreignUsers', path: 'foreign-users', traversal: { shape: 'foreign', how: 'members' }, targets: ['User'] },
  foreignGroups: { key: 'foreignGroups', path: 'foreign-groups', traversal: { shape: 'foreign', how: 'members' }, targets: ['Group'] },
  foreignAdmins: { key: 'foreignAdmins', path: 'foreign-admins', traversal: { shape: 'foreign', how: 'admins' } },
  foreignGPOControllers: { key: 'foreignGPOControllers', path: 'foreign-gpo-controllers', traversal: { shape: 'foreignGpoControllers' } },
  inboundTrusts: { key: 'inboundTrusts', path: 'inbound-trusts', traversal: inn(TRUSTS), targets: ['Domain'] },
  outboundTrusts: { key: 'outboundTrusts', path: 'outbound-trusts', traversal: out(TRUSTS), targets: ['Domain'] },
  dcSyncers: { key: 'dcsyncers', path: 'dc-syncers', traversal: holders(['DCSync', 'GetChangesAll']) },
  linkedGPOs: { key: 'linkedgpos', path: 'linked-gpos', traversal: inn(['GPLink']), targets: ['GPO'] },
  ouGPOs: { key: 'gpos', path: 'gpos', traversal: inn(['GPLink']), targets: ['GPO'] },
  ouUsers: { key: 'users', path: 'users', traversal: contained, targets: ['User'], noGraph: true },
  ouGroups: { key: 'groups', path: 'groups', traversal: contained, targets: ['Group'], noGraph: true },
  ouComputers: { key: 'computers', path: 'computers', traversal: contained, targets: ['Computer'], noGraph: true },
  gpoOUs: { key: 'ous', path: 'ous', traversal: gpoAffected, targets: ['OU', 'Domain'] },
  gpoComputers: { key: 'computers', path: 'computers', traversal: gpoAffected, targets: ['Computer'] },
  gpoUsers: { key: 'users', path: 'users', traversal: gpoAffected, targets: ['User'] },
  gpoTierZero: { key: 'tierzero', path: 'tier-zero', traversal: gpoAffected, targets: [TIER_ZERO_KIND] },
  linkedTemplates: { key: 'linkedTemplates', path: 'linkedtemplates', traversal: inn(['ExtendedByPolicy']), targets: ['CertTemplate'] },
  publishedToCAs: { key: 'publishedToCAs', path: 'published-to-cas', traversal: out(['PublishedTo']), targets: ['EnterpriseCA'] },
  publishedTemplates: {
    key: 'publishedTemplates',
    path: 'published-templates',
    traversal: inn(['PublishedTo']),
    targets: ['CertTemplate'],
  },
  pkiHierarchy: { key: 'pkiHierarchy', path: 'pki-hierarchy', traversal: { shape: 'transitive', dir: 'out', edges: PKI } },
  trustedCAs: { key: 'trustedCAs', path: 'trusted-cas', traversal: inn(['TrustedForNTAuth']), targets: ['EnterpriseCA'] },
  // Azure (related_entity_type values of /api/v2/azure/{entity_type}).
  azMemberOf: { key: 'groupMembership', path: 'group-membership', traversal: { shape: 'transitive', dir: 'out', edges: [AZM] } },
  azMembers: { key: 'members', path: 'group-members', traversal: { shape: 'transitive', dir: 'in', edges: [AZM] } },
  azRoles: { key: 'roles', path: 'roles', traversal: out(['AZHasRole']), targets: ['AZRole'] },
  azActiveAssignments: { key: 'activeAssignments', path: 'active-assignments', traversal: inn(['AZHasRole']) },
  azPimAssignments: { key: 'pimAssignments', path: 'pim-assignments', traversal: inn(['AZRoleEligible']) },
  azInboundControl: { key: 'inboundObjectControl', path: 'inbound-control', traversal: holders(AZ_CONTROL, AZM) },
  azOutboundControl: {
    key: 'outboundObjectControl',
    path: 'outbound-control',
    traversal: { shape: 'viaMembership', dir: 'out', edges: AZ_CONTROL, membership: AZM },
  },
  azInboundExecution: { key: 'inboundExecutionPrivileges', path: 'inbound-execution-privileges', traversal: holders(AZ_EXECUTION, AZM) },
  azOutboundExecution: {
    key: 'outboundExecutionPrivileges',
    path: 'outbound-execution-privileges',
    traversal: { shape: 'viaMembership', dir: 'out', edges: AZ_EXECUTION, membership: AZM },
  },
  azOwners: { key: 'owners', path: 'owners', traversal: inn(['AZOwns', 'AZOwner']) },
  azDescendantUsers: azDescendants('Users', 'users', 'AZUser'),
  azDescendantGroups: azDescendants('Groups', 'groups', 'AZGroup'),
  azDescendantSubscriptions: azDescendants('Subscriptions', 'subscriptions', 'AZSubscription'),
  azDescendantResourceGroups: azDescendants('ResourceGroups', 'resource-groups', 'AZResourceGroup'),
  azDescendantVMs: azDescendants('VirtualMachines', 'virtual-machines', 'AZVM'),
  azDescendantKeyVaults: azDescendants('KeyVaults', 'key-vaults', 'AZKeyVault'),
  azDescendantManagementGroups: azDescendants('ManagementGroups', 'management-groups', 'AZManagementGroup'),
  azDescendantApps: azDescendants('Applications', 'applications', 'AZApp'),
  azDescendantServicePrincipals: azDescendants('ServicePrincipals', 'service-principals', 'AZServicePrincipal'),
  azDescendantDevices: azDescendants('Devices', 'devices', 'AZDevice'),
} satisfies Record<string, ListSpec>;

export type ListId = keyof typeof LISTS;

/** An entity type: its node kind and the lists of its panel. `azure` types are served under /api/v2/azure/{path}. */
export interface EntityType {
  /** REST segment: /api/v2/<path>/{id}, or /api/v2/azure/<path> for Azure types. */
  path: string;
  kind: string;
  azure?: boolean;
  lists: readonly ListId[];
}

const RIGHTS: ListId[] = ['adminRights', 'rdpRights', 'dcomRights', 'psRemoteRights', 'backupRights'];
const CONTROL: ListId[] = ['controllables', 'controllers'];
const AZ_PRINCIPAL: ListId[] = ['azMemberOf', 'azRoles', 'azInboundControl', 'azOutboundControl', 'azOutboundExecution'];
const AZ_RESOURCE: ListId[] = ['azInboundControl', 'azInboundExecution', 'azOwners'];
const AZ_SCOPE: ListId[] = [
  'azInboundControl',
  'azDescendantUsers',
  'azDescendantGroups',
  'azDescendantSubscriptions',
  'azDescendantResourceGroups',
  'azDescendantVMs',
  'azDescendantKeyVaults',
  'azDescendantManagementGroups',
  'azDescendantApps',
  'azDescendantServicePrincipals',
  'azDescendantDevices',
];

export const ENTITY_TYPES: readonly EntityType[] = [
  { path: 'base', kind: 'Base', lists: CONTROL },
  {
    path: 'users',
    kind: 'User',
    lists: ['userSessions', 'groupMembership', ...RIGHTS, 'sqlAdminRights', 'constrainedDelegationRights', ...CONTROL, 'gpos'],
  },
  { path: 'groups', kind: 'Group', lists: ['groupSessions', 'members', 'groupMembership', ...RIGHTS, ...CONTROL] },
  {
    path: 'computers',
    kind: 'Computer',
    lists: [
      'computerSessions',
      'adminUsers',
      'rdpUsers',
      'dcomUsers',
      'psRemoteUsers',
      'backupOperators',
      'sqlAdmins',
      'constrainedUsers',
      'computerGroupMembership',
      ...RIGHTS,
      'constrainedDelegationRights',
      ...CONTROL,
      'gpos',
    ],
  },
  {
    path: 'domains',
    kind: 'Domain',
    lists: [
      'domainUsers',
      'domainGroups',
      'domainComputers',
      'domainOUs',
      'domainGPOs',
      'foreignUsers',
      'foreignGroups',
      'foreignAdmins',
      'foreignGPOControllers',
      'inboundTrusts',
      'outboundTrusts',
      'controllers',
      'dcSyncers',
      'linkedGPOs',
    ],
  },
  { path: 'ous', kind: 'OU', lists: ['ouGPOs', 'ouUsers', 'ouGroups', 'ouComputers', 'controllers'] },
  { path: 'gpos', kind: 'GPO', lists: ['gpoOUs', 'gpoComputers', 'gpoUsers', 'controllers', 'gpoTierZero'] },
  { path: 'containers', kind: 'Container', lists: ['controllers'] },
  { path: 'certtemplates', kind: 'CertTemplate', lists: ['controllers', 'publishedToCAs'] },
  { path: 'enterprisecas', kind: 'EnterpriseCA', lists: ['controllers', 'pkiHierarchy', 'publishedTemplates'] },
  { path: 'rootcas', kind: 'RootCA', lists: ['controllers', 'pkiHierarchy'] },
  { path: 'aiacas', kind: 'AIACA', lists: ['controllers', 'pkiHierarchy'] },
  { path: 'ntauthstores', kind: 'NTAuthStore', lists: ['controllers', 'trustedCAs'] },
  { path: 'issuancepolicies', kind: 'IssuancePolicy', lists: ['controllers', 'linkedTemplates'] },
  { path: 'sites', kind: 'Site', lists: ['controllers'] },
  { path: 'siteservers', kind: 'SiteServer', lists: ['controllers'] },
  { path: 'sitesubnets', kind: 'SiteSubnet', lists: ['controllers'] },
  { path: 'tenants', kind: 'AZTenant', azure: true, lists: AZ_SCOPE },
  { path: 'users', kind: 'AZUser', azure: true, lists: AZ_PRINCIPAL },
  { path: 'groups', kind: 'AZGroup', azure: true, lists: ['azMembers', ...AZ_PRINCIPAL] },
  { path: 'apps', kind: 'AZApp', azure: true, lists: ['azInboundControl', 'azOwners'] },
  { path: 'service-principals', kind: 'AZServicePrincipal', azure: true, lists: [...AZ_PRINCIPAL, 'azOwners'] },
  { path: 'devices', kind: 'AZDevice', azure: true, lists: [...AZ_RESOURCE] },
  { path: 'roles', kind: 'AZRole', azure: true, lists: ['azActiveAssignments', 'azPimAssignments'] },
  { path: 'subscriptions', kind: 'AZSubscription', azure: true, lists: AZ_SCOPE },
  { path: 'resource-groups', kind: 'AZResourceGroup', azure: true, lists: AZ_SCOPE },
  { path: 'management-groups', kind: 'AZManagementGroup', azure: true, lists: AZ_SCOPE },
  { path: 'vms', kind: 'AZVM', azure: true, lists: [...AZ_RESOURCE, 'azOutboundControl'] },
  { path: 'vm-scale-sets', kind: 'AZVMScaleSet', azure: true, lists: AZ_RESOURCE },
  { path: 'key-vaults', kind: 'AZKeyVault', azure: true, lists: AZ_RESOURCE },
  { path: 'function-apps', kind: 'AZFunctionApp', azure: true, lists: AZ_RESOURCE },
  { path: 'web-apps', kind: 'AZWebApp', azure: true, lists: AZ_RESOURCE },
  { path: 'logic-apps', kind: 'AZLogicApp', azure: true, lists: AZ_RESOURCE },
  { path: 'automation-accounts', kind: 'AZAutomationAccount', azure: true, lists: AZ_RESOURCE },
  { path: 'managed-clusters', kind: 'AZManagedCluster', azure: true, lists: AZ_RESOURCE },
  { path: 'container-registries', kind: 'AZContainerRegistry', azure: true, lists: AZ_RESOURCE },
];

/** The entity type a node is shown as: its most specific kind with a panel, else Base (AD) or none. */
export function entityTypeOf(kinds: readonly string[]): EntityType | undefined {
  return ENTITY_TYPES.find((t) => t.kind !== 'Base' && kinds.includes(t.kind)) ?? ENTITY_TYPES.find((t) => kinds.includes(t.kind));
}

export function entityType(path: string, azure: boolean): EntityType | undefined {
  return ENTITY_TYPES.find((t) => t.path === path && !!t.azure === azure);
}

/** The list of an entity type by its count key (GraphQL) or REST path segment. */
export function listOf(type: EntityType, by: 'key' | 'path', value: string): ListId | undefined {
  return type.lists.find((id) => LISTS[id][by] === value);
}
