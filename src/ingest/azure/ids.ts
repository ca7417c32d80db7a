/**
 * Well-known Azure identifiers BloodHound's converters key on (AzureHound constants and BloodHound graphschema/azure).
 */

/**
 * Azure RBAC built-in roles that give an edge: role definition id (lower case, as AzureHound reports it) → the edge
 * kind (BloodHound's KindFromRoleId).
 */
export const KIND_BY_RBAC_ROLE: Readonly<Record<string, string>> = {
  '8e3af657-a8ff-443c-a75c-2fe8c4bcb635': 'AZOwner',
  '18d7d88d-d35e-4fb5-a5c3-7773c20a72d9': 'AZUserAccessAdministrator',
  'b24988ac-6180-42a0-ab88-20f7382dd24c': 'AZContributor',
  'de139f84-1756-47ae-9be6-808fbbe84772': 'AZWebsiteContributor',
  'f353d9bd-d4a6-484e-a77a-8050b599b867': 'AZAutomationContributor',
  '87a39d53-fc1b-424a-814c-f7e04687dc9e': 'AZLogicAppContributor',
  '9980e02c-c2be-4d73-94e8-173b1dc7cf3c': 'AZVMContributor',
  'ed7f3fbd-7b88-4dd4-9017-9adb7ce333f8': 'AZAKSContributor',
};

/** Entra directory role template ids. */
export const ENTRA_ROLE = {
  applicationAdministrator: '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3',
  cloudApplicationAdministrator: '158c047a-c907-4556-b7ef-446551a6b5f7',
  privilegedRoleAdministrator: 'e8611ab8-c189-46e8-94e1-60213ab1f814',
} as const;

/** Roles whose scoped assignment becomes a direct edge to the scoped object instead of AZHasRole (CanAddSecret). */
export const ADD_SECRET_KIND: Readonly<Record<string, string>> = {
  [ENTRA_ROLE.applicationAdministrator]: 'AZAppAdmin',
  [ENTRA_ROLE.cloudApplicationAdministrator]: 'AZCloudAppAdmin',
};

/** Microsoft Graph's application id: only its app role assignments are converted. */
export const MS_GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';

/** Microsoft Graph application permissions (app role ids) and the edge each becomes. */
export const KIND_BY_MS_GRAPH_APP_ROLE: Readonly<Record<string, string>> = {
  '1bfefb4e-e0b5-418b-a88f-73c46d2cc8e9': 'AZMGApplication_ReadWrite_All',
  '06b708a9-e830-4db3-a914-8e69da51d44f': 'AZMGAppRoleAssignment_ReadWrite_All',
  '19dbc75e-c2e2-444c-a770-ec69d8559fc7': 'AZMGDirectory_ReadWrite_All',
  '62a82d76-70ea-41e2-9197-370581804d09': 'AZMGGroup_ReadWrite_All',
  'dbaae8cf-10b5-4b86-a4a1-f871c94c6695': 'AZMGGroupMember_ReadWrite_All',
  '9e3f62cf-ca93-4989-b6ce-bf83c28f9fe8': 'AZMGRoleManagement_ReadWrite_Directory',
  '89c8469c-83ad-45f7-8ff2-6e3d4285709e': 'AZMGServicePrincipalEndpoint_ReadWrite_All',
};
