/**
 * The Azure vocabulary post-processing reads and writes (BloodHound's graphschema/azure). Kept here rather than in
 * graph/kinds.ts so the analysis rules and their inputs are listed in one place.
 */

/** Entra built-in role template ids (stable across tenants). */
export const ROLE = {
  globalAdmin: '62e90394-69f5-4237-9190-012177145e10',
  privilegedRoleAdmin: 'e8611ab8-c189-46e8-94e1-60213ab1f814',
  privilegedAuthAdmin: '7be44c8a-adaf-4e2a-84d6-ab2649e08a13',
  applicationAdmin: '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3',
  cloudApplicationAdmin: '158c047a-c907-4556-b7ef-446551a6b5f7',
  hybridIdentityAdmin: '8ac3fc64-6eca-42ea-9e69-59f4c7b60eb2',
  partnerTier1Support: '4ba39ca4-527c-499a-b93d-d9b492c50246',
  partnerTier2Support: 'e00e864a-17c5-4a4b-9c06-f5b95a8d5bd8',
  directorySyncAccounts: 'd29b2b05-8046-44ba-8758-1e26182fcf32',
  userAdmin: 'fe930be7-5e62-47db-91af-98c3a49a38b1',
  helpdeskAdmin: '729827e3-9c14-49f7-bb1b-9608f156bbb8',
  authenticationAdmin: 'c4e39bd9-1100-46d3-8c65-fb160da0071f',
  passwordAdmin: '966707d0-3269-4727-9be2-8c3a10f19b9d',
  groupsAdmin: 'fdd7a751-b60b-444a-984c-02652fe8fa1c',
  directoryWriters: '9360feb5-f418-4baa-8175-e2a00bac4301',
  identityGovernanceAdmin: '45d8d3c5-c802-45c6-b32a-1d70b5e1e86e',
  intuneAdmin: '3a2c62db-5318-420d-8d74-23affee5d9d5',
  knowledgeAdmin: 'b5a8dcf3-09d5-43a9-a639-8e29ef291470',
  knowledgeManager: '744ec460-397e-42ad-a462-8b3f9747a02c',
  reportsReader: '4a5d8f65-41da-4de4-8968-e035b65339cf',
  messageCenterReader: '790c1fb9-7f7d-4f88-86a1-ef1f95c05c1b',
  guestInviter: '95e79109-95c0-4d8e-aee3-d01accf2d47b',
  directoryReaders: '88d8e3e3-8f55-4a1e-953a-9b9898b8876b',
  usageSummaryReportsReader: '75934031-6c7e-415a-99d7-48dbd49e875e',
} as const;

/** Node kinds. */
export const AZ = {
  tenant: 'AZTenant',
  user: 'AZUser',
  group: 'AZGroup',
  sp: 'AZServicePrincipal',
  app: 'AZApp',
  role: 'AZRole',
  device: 'AZDevice',
  managementGroup: 'AZManagementGroup',
  base: 'AZBase',
} as const;

/** Raw (collected) relationship kinds the rules read. */
export const RAW = {
  contains: 'AZContains',
  memberOf: 'AZMemberOf',
  hasRole: 'AZHasRole',
  applicationReadWriteAll: 'AZMGApplication_ReadWrite_All',
  appRoleAssignmentReadWriteAll: 'AZMGAppRoleAssignment_ReadWrite_All',
  directoryReadWriteAll: 'AZMGDirectory_ReadWrite_All',
  groupReadWriteAll: 'AZMGGroup_ReadWrite_All',
  groupMemberReadWriteAll: 'AZMGGroupMember_ReadWrite_All',
  roleManagementReadWriteDirectory: 'AZMGRoleManagement_ReadWrite_Directory',
  servicePrincipalEndpointReadWriteAll: 'AZMGServicePrincipalEndpoint_ReadWrite_All',
} as const;

/** Derived relationship kinds (azure.PostProcessedRelationships() plus AddOwner, RoleApprover and the hybrid pair). */
export const DERIVED = {
  addSecret: 'AZAddSecret',
  addOwner: 'AZAddOwner',
  executeCommand: 'AZExecuteCommand',
  resetPassword: 'AZResetPassword',
  addMembers: 'AZAddMembers',
  globalAdmin: 'AZGlobalAdmin',
  privilegedRoleAdmin: 'AZPrivilegedRoleAdmin',
  privilegedAuthAdmin: 'AZPrivilegedAuthAdmin',
  mgAddMember: 'AZMGAddMember',
  mgAddOwner: 'AZMGAddOwner',
  mgAddSecret: 'AZMGAddSecret',
  mgGrantAppRoles: 'AZMGGrantAppRoles',
  mgGrantRole: 'AZMGGrantRole',
  roleApprover: 'AZRoleApprover',
  syncedToADUser: 'SyncedToADUser',
  syncedToEntraUser: 'SyncedToEntraUser',
} as const;

/** Every edge kind the Azure and hybrid steps derive; a run deletes and recomputes all of them. */
export const AZURE_POST_PROCESSED_KINDS: readonly string[] = Object.values(DERIVED);

/** Node properties the Azure rules read, as AzureHound's converters write them (ein/azure.go). */
export const AZURE_ANALYSIS_PROPERTIES: readonly string[] = [
  'tenantid',
  'templateid',
  'displayname',
  'isassignabletorole',
  'operatingsystem',
  'onpremid',
  'onpremsyncenabled',
  'serviceprincipaltype',
  'enduserassignmentrequiresapproval',
  'enduserassignmentuserapprovers',
  'enduserassignmentgroupapprovers',
];

/** Edge kinds the Azure rules read. */
export const AZURE_ANALYSIS_EDGE_KINDS: readonly string[] = Object.values(RAW);
