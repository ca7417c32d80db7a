/**
 * The pathfinding edge filter's groups of kinds, as BloodHound's Pathfinding tab groups them (its edge filtering
 * dialog): a platform, then named subcategories of edge kinds.
 */
export interface EdgeSubcategory {
  name: string;
  kinds: readonly string[];
}

export interface EdgeCategory {
  name: string;
  subcategories: readonly EdgeSubcategory[];
}

export const EDGE_CATEGORIES: readonly EdgeCategory[] = [
  {
    name: 'Active Directory',
    subcategories: [
      {
        name: 'Active Directory Structure',
        kinds: ['Contains', 'DCFor', 'GPLink', 'ClaimSpecialIdentity', 'HasSIDHistory', 'MemberOf', 'SameForestTrust'],
      },
      {
        name: 'Lateral Movement',
        kinds: ['AdminTo', 'AllowedToAct', 'AllowedToDelegate', 'CanPSRemote', 'CanRDP', 'ExecuteDCOM', 'SQLAdmin'],
      },
      {
        name: 'Credential Access',
        kinds: [
          'CoerceToTGT',
          'DCSync',
          'DumpSMSAPassword',
          'HasSession',
          'ReadGMSAPassword',
          'ReadLAPSPassword',
          'SyncLAPSPassword',
          'HasTrustKeys',
        ],
      },
      {
        name: 'Basic Object Manipulation',
        kinds: [
          'AddMember',
          'AddSelf',
          'AllExtendedRights',
          'ForceChangePassword',
          'GenericAll',
          'Owns',
          'OwnsLimitedRights',
          'ProtectAdminGroups',
          'GenericWrite',
          'WriteDacl',
          'WriteOwner',
          'WriteOwnerLimitedRights',
        ],
      },
      {
        name: 'Advanced Object Manipulation',
        kinds: [
          'AddAllowedToAct',
          'AddKeyCredentialLink',
          'WriteAccountRestrictions',
          'WriteAltSecurityIdentities',
          'WriteGPLink',
          'WritePublicInformation',
          'WriteSPN',
        ],
      },
      {
        name: 'Active Directory Certificate Services',
        kinds: [
          'GoldenCert',
          'ManageCA',
          'ManageCertificates',
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
        ],
      },
      { name: 'Cross Forest Trust Abuse', kinds: ['SpoofSIDHistory', 'AbuseTGTDelegation'] },
      { name: 'Cross Platform', kinds: ['SyncedToADUser'] },
      {
        name: 'NTLM Relay',
        kinds: ['CoerceAndRelayNTLMToSMB', 'CoerceAndRelayNTLMToADCS', 'CoerceAndRelayNTLMToLDAP', 'CoerceAndRelayNTLMToLDAPS'],
      },
    ],
  },
  {
    name: 'Azure',
    subcategories: [
      {
        name: 'Structure',
        kinds: [
          'AZAppAdmin',
          'AZCloudAppAdmin',
          'AZContains',
          'AZGlobalAdmin',
          'AZHasRole',
          'AZManagedIdentity',
          'AZMemberOf',
          'AZNodeResourceGroup',
          'AZPrivilegedAuthAdmin',
          'AZPrivilegedRoleAdmin',
          'AZRunsAs',
          'AZRoleEligible',
          'AZRoleApprover',
          'AZAuthenticatesTo',
        ],
      },
      {
        name: 'Basic AzureAD Object Manipulation',
        kinds: ['AZAddMembers', 'AZAddOwner', 'AZAddSecret', 'AZExecuteCommand', 'AZGrant', 'AZGrantSelf', 'AZOwns', 'AZResetPassword'],
      },
      { name: 'MS Graph App Role Abuses', kinds: ['AZMGAddMember', 'AZMGAddOwner', 'AZMGAddSecret', 'AZMGGrantAppRoles', 'AZMGGrantRole'] },
      { name: 'Secret/Credential Access', kinds: ['AZGetCertificates', 'AZGetKeys', 'AZGetSecrets'] },
      {
        name: 'Basic AzureRM Object Manipulation',
        kinds: [
          'AZAvereContributor',
          'AZKeyVaultContributor',
          'AZOwner',
          'AZContributor',
          'AZUserAccessAdministrator',
          'AZVMAdminLogin',
          'AZVMContributor',
        ],
      },
      {
        name: 'Advanced AzureRM Object Manipulation',
        kinds: ['AZAKSContributor', 'AZAutomationContributor', 'AZLogicAppContributor', 'AZWebsiteContributor'],
      },
      { name: 'Cross Platform', kinds: ['SyncedToEntraUser'] },
    ],
  },
];

/** Every kind the filter offers, once. */
export const PATHFINDING_KINDS: readonly string[] = [...new Set(EDGE_CATEGORIES.flatMap((c) => c.subcategories.flatMap((s) => s.kinds)))];

/**
 * The shortest-path query's `relationshipKinds`: BloodHound's UI sends the kinds left checked (`in:`); with nothing
 * left out, the filter is every pathfinding kind.
 */
export function relationshipKinds(excluded: readonly string[]): string {
  const out = new Set(excluded);
  return `in:${PATHFINDING_KINDS.filter((k) => !out.has(k)).join(',')}`;
}
