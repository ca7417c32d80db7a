/**
 * The graph vocabulary, as BloodHound names it (packages/go/graphschema). Node kinds are labels a node carries
 * (every AD node is `Base` plus its type); relationship kinds are edge types.
 */

export const AD_NODE_KINDS = [
  'User',
  'Computer',
  'Group',
  'GPO',
  'OU',
  'Container',
  'Domain',
  'ADLocalGroup',
  'ADLocalUser',
  'AIACA',
  'RootCA',
  'EnterpriseCA',
  'NTAuthStore',
  'CertTemplate',
  'IssuancePolicy',
  'Site',
  'SiteServer',
  'SiteSubnet',
] as const;

export const AZ_NODE_KINDS = [
  'AZUser',
  'AZGroup',
  'AZTenant',
  'AZSubscription',
  'AZResourceGroup',
  'AZManagementGroup',
  'AZRole',
  'AZServicePrincipal',
  'AZApp',
  'AZDevice',
  'AZVM',
  'AZVMScaleSet',
  'AZKeyVault',
  'AZFunctionApp',
  'AZWebApp',
  'AZLogicApp',
  'AZAutomationAccount',
  'AZManagedCluster',
  'AZContainerRegistry',
  'AZFederatedIdentityCredential',
] as const;

/**
 * Relationship kinds AzureHound ingest writes (BloodHound graphschema/azure): containment, membership and ownership,
 * directory roles and PIM, Azure RBAC roles, key vault access, Microsoft Graph app permissions, managed identities
 * and federated credentials. The kinds Azure analysis derives are in POST_PROCESSED_KINDS.
 */
export const AZ_EDGE_KINDS = [
  'AZContains',
  'AZMemberOf',
  'AZOwns',
  'AZRunsAs',
  'AZHasRole',
  'AZAppAdmin',
  'AZCloudAppAdmin',
  'AZRoleEligible',
  'AZRoleApprover',
  'AZAuthenticatesTo',
  'AZManagedIdentity',
  'AZNodeResourceGroup',
  'AZOwner',
  'AZUserAccessAdministrator',
  'AZContributor',
  'AZKeyVaultContributor',
  'AZVMContributor',
  'AZVMAdminLogin',
  'AZAvereContributor',
  'AZWebsiteContributor',
  'AZLogicAppContributor',
  'AZAutomationContributor',
  'AZAKSContributor',
  'AZGetCertificates',
  'AZGetKeys',
  'AZGetSecrets',
  'AZMGApplication_ReadWrite_All',
  'AZMGAppRoleAssignment_ReadWrite_All',
  'AZMGDirectory_ReadWrite_All',
  'AZMGGroup_ReadWrite_All',
  'AZMGGroupMember_ReadWrite_All',
  'AZMGRoleManagement_ReadWrite_Directory',
  'AZMGServicePrincipalEndpoint_ReadWrite_All',
] as const;

/** Kinds that describe a node's type, in the order a primary (display) kind is chosen. */
export const DISPLAY_KINDS: readonly string[] = [...AD_NODE_KINDS.filter((k) => k !== 'ADLocalGroup'), ...AZ_NODE_KINDS];

/** The tier-zero tag analysis adds as a kind (and as system_tags "admin_tier_0"). */
export const TIER_ZERO_KIND = 'Tag_Tier_Zero';

/** ACL relationships (ad.ACLRelationships()): rights one principal holds over an object. */
export const ACL_KINDS = [
  'AllExtendedRights',
  'ForceChangePassword',
  'AddMember',
  'AddAllowedToAct',
  'GenericAll',
  'WriteDacl',
  'WriteOwner',
  'GenericWrite',
  'ReadLAPSPassword',
  'ReadGMSAPassword',
  'Owns',
  'AddSelf',
  'WriteSPN',
  'AddKeyCredentialLink',
  'GetChanges',
  'GetChangesAll',
  'GetChangesInFilteredSet',
  'WriteAccountRestrictions',
  'WriteGPLink',
  'SyncLAPSPassword',
  'DCSync',
  'ManageCertificates',
  'ManageCA',
  'Enroll',
  'WritePKIEnrollmentFlag',
  'WritePKINameFlag',
  'WriteOwnerLimitedRights',
  'OwnsLimitedRights',
] as const;

/** The ADCS escalations analysis derives (post-processed, and all traversable). */
const ADCS_ESC_KINDS = [
  'ADCSESC1',
  'ADCSESC3',
  'ADCSESC4',
  'ADCSESC6a',
  'ADCSESC6b',
  'ADCSESC9a',
  'ADCSESC9b',
  'ADCSESC10a',
  'ADCSESC10b',
  'ADCSESC13',
] as const;

/** The abuses of Microsoft Graph app permissions analysis derives (post-processed, and all traversable). */
const AZ_MG_KINDS = ['AZMGAddMember', 'AZMGAddOwner', 'AZMGAddSecret', 'AZMGGrantAppRoles', 'AZMGGrantRole'] as const;

/** Edges analysis derives; a run deletes and recomputes all of them (ad.PostProcessedRelationships()). */
export const POST_PROCESSED_KINDS = [
  'DCSync',
  'ProtectAdminGroups',
  'SyncLAPSPassword',
  'CanRDP',
  'AdminTo',
  'CanPSRemote',
  'ExecuteDCOM',
  'TrustedForNTAuth',
  'IssuedSignedBy',
  'EnterpriseCAFor',
  'GoldenCert',
  ...ADCS_ESC_KINDS,
  'EnrollOnBehalfOf',
  'SyncedToEntraUser',
  'Owns',
  'WriteOwner',
  'ExtendedByPolicy',
  'CoerceAndRelayNTLMToADCS',
  'CoerceAndRelayNTLMToSMB',
  'CoerceAndRelayNTLMToLDAP',
  'CoerceAndRelayNTLMToLDAPS',
  'GPOAppliesTo',
  'CanApplyGPO',
  'HasTrustKeys',
  'CanBackup',
  // Azure
  'AZAddSecret',
  'AZExecuteCommand',
  'AZResetPassword',
  'AZAddMembers',
  'AZGlobalAdmin',
  'AZPrivilegedRoleAdmin',
  'AZPrivilegedAuthAdmin',
  ...AZ_MG_KINDS,
  'SyncedToADUser',
] as const;

/** The "traversable" kinds of the shortest-path endpoint's only_traversable=true (AD + Azure pathfinding sets). */
export const TRAVERSABLE_KINDS: ReadonlySet<string> = new Set([
  'Owns',
  'GenericAll',
  'GenericWrite',
  'WriteOwner',
  'WriteDacl',
  'MemberOf',
  'ForceChangePassword',
  'AllExtendedRights',
  'AddMember',
  'HasSession',
  'GPLink',
  'ServerIs',
  'AllowedToDelegate',
  'CoerceToTGT',
  'AllowedToAct',
  'AdminTo',
  'CanPSRemote',
  'CanRDP',
  'ExecuteDCOM',
  'HasSIDHistory',
  'AddSelf',
  'DCSync',
  'ReadLAPSPassword',
  'ReadGMSAPassword',
  'DumpSMSAPassword',
  'SQLAdmin',
  'AddAllowedToAct',
  'WriteSPN',
  'AddKeyCredentialLink',
  'SyncLAPSPassword',
  'WriteAccountRestrictions',
  'WriteGPLink',
  'GoldenCert',
  ...ADCS_ESC_KINDS,
  'SyncedToEntraUser',
  'CoerceAndRelayNTLMToSMB',
  'CoerceAndRelayNTLMToADCS',
  'WriteOwnerLimitedRights',
  'OwnsLimitedRights',
  'ClaimSpecialIdentity',
  'CoerceAndRelayNTLMToLDAP',
  'CoerceAndRelayNTLMToLDAPS',
  'ContainsIdentity',
  'PropagatesACEsTo',
  'GPOAppliesTo',
  'CanApplyGPO',
  'HasTrustKeys',
  'ManageCA',
  'ManageCertificates',
  'CanBackup',
  'Contains',
  'DCFor',
  'SameForestTrust',
  'SpoofSIDHistory',
  'AbuseTGTDelegation',
  'AZAvereContributor',
  'AZContains',
  'AZContributor',
  'AZGetCertificates',
  'AZGetKeys',
  'AZGetSecrets',
  'AZHasRole',
  'AZMemberOf',
  'AZOwner',
  'AZRunsAs',
  'AZVMContributor',
  'AZAutomationContributor',
  'AZKeyVaultContributor',
  'AZVMAdminLogin',
  'AZAddMembers',
  'AZAddSecret',
  'AZExecuteCommand',
  'AZGlobalAdmin',
  'AZPrivilegedAuthAdmin',
  'AZGrant',
  'AZGrantSelf',
  'AZPrivilegedRoleAdmin',
  'AZResetPassword',
  'AZUserAccessAdministrator',
  'AZOwns',
  'AZCloudAppAdmin',
  'AZAppAdmin',
  'AZAddOwner',
  'AZManagedIdentity',
  'AZAKSContributor',
  'AZNodeResourceGroup',
  'AZWebsiteContributor',
  'AZLogicAppContributor',
  ...AZ_MG_KINDS,
  'SyncedToADUser',
]);

/**
 * The node kind shown for a node (BloodHound's PrimaryNodeKind): the first known display kind; `Base`/`AZBase`
 * only as a fallback; ADLocalGroup only when nothing better; "Unknown" when nothing is known.
 */
export function primaryKind(kinds: readonly string[], extraDisplayKinds?: ReadonlySet<string>): string {
  let fallback: string | undefined;
  let localGroup = false;
  for (const k of kinds) {
    if (k === 'Meta' || k === 'MetaDetail' || k === 'MetaIncludes') return 'Meta';
    if (k === 'Base' || k === 'AZBase') fallback ??= k;
    else if (k === 'ADLocalGroup') localGroup = true;
    else if (DISPLAY_KINDS.includes(k) || extraDisplayKinds?.has(k)) return k;
  }
  if (localGroup) return 'ADLocalGroup';
  return fallback ?? 'Unknown';
}

export interface KindIcon {
  icon: string;
  color: string;
}

/** Built-in display of each kind (BloodHound's icon table): Font Awesome solid icon name and colour. */
export const BUILTIN_ICONS: Readonly<Record<string, KindIcon>> = {
  User: { icon: 'user', color: '#17E625' },
  Group: { icon: 'users', color: '#DBE617' },
  Computer: { icon: 'desktop', color: '#E67873' },
  Domain: { icon: 'globe', color: '#17E6B9' },
  OU: { icon: 'sitemap', color: '#FFAA00' },
  GPO: { icon: 'list', color: '#998EFD' },
  Container: { icon: 'box', color: '#F79A78' },
  ADLocalGroup: { icon: 'users', color: '#DBE617' },
  AIACA: { icon: 'arrows-left-right-to-line', color: '#9769F0' },
  RootCA: { icon: 'landmark', color: '#6968E8' },
  EnterpriseCA: { icon: 'building', color: '#4696E9' },
  NTAuthStore: { icon: 'store', color: '#D575F5' },
  CertTemplate: { icon: 'id-card', color: '#B153F3' },
  IssuancePolicy: { icon: 'clipboard-check', color: '#EEEEEE' },
  AZUser: { icon: 'user', color: '#34D2EB' },
  AZGroup: { icon: 'users', color: '#F57C9B' },
  AZTenant: { icon: 'cloud', color: '#54F2F2' },
  AZSubscription: { icon: 'key', color: '#D2CCA1' },
  AZResourceGroup: { icon: 'cube', color: '#89BD9E' },
  AZManagementGroup: { icon: 'sitemap', color: '#BD93D8' },
  AZRole: { icon: 'clipboard-list', color: '#ED8537' },
  AZServicePrincipal: { icon: 'robot', color: '#C1D6D6' },
  AZApp: { icon: 'window-restore', color: '#03FC84' },
  AZDevice: { icon: 'desktop', color: '#B18FCF' },
  AZVM: { icon: 'desktop', color: '#F9ADA0' },
  AZKeyVault: { icon: 'lock', color: '#ED658C' },
  AZVMScaleSet: { icon: 'server', color: '#007CD0' },
  AZFunctionApp: { icon: 'bolt', color: '#F4BA44' },
  AZAutomationAccount: { icon: 'cog', color: '#F4BA44' },
  AZManagedCluster: { icon: 'cubes', color: '#326CE5' },
  AZContainerRegistry: { icon: 'box-open', color: '#0885D7' },
  AZWebApp: { icon: 'object-group', color: '#4696E9' },
  AZLogicApp: { icon: 'sitemap', color: '#9EE047' },
  AZFederatedIdentityCredential: { icon: 'id-badge', color: '#C5A3E8' },
};

/** What a kind without a valid icon renders as: a question mark on white. */
export const FALLBACK_ICON: KindIcon = { icon: 'question', color: '#FFFFFF' };
