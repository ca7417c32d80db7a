import { cypher, TIER_ZERO, type Section } from './types.js';

const AZ = 'Azure' as const;

/** Entra roles that control identities or their credentials, matched on the role's name (names are NAME@TENANT). */
const PRIVILEGED_ROLE = (r: string) =>
  `${r}.name =~ '(?i)(global administrator|user administrator|cloud application administrator|authentication policy administrator|exchange administrator|helpdesk administrator|privileged authentication administrator|privileged role administrator)@.*'`;

/** Azure RM roles a synced user may hold over resources. */
const RM_ROLES =
  'AZOwner|AZUserAccessAdministrator|AZGetCertificates|AZGetKeys|AZGetSecrets|AZAvereContributor|AZKeyVaultContributor|AZContributor|AZVMAdminLogin|AZVMContributor|AZAKSContributor|AZAutomationContributor|AZLogicAppContributor|AZWebsiteContributor';

/** Microsoft Graph app roles that let a service principal take over the tenant. */
const DANGEROUS_APP_ROLES =
  'AZMGAppRoleAssignment_ReadWrite_All|AZMGApplication_ReadWrite_All|AZMGDirectory_ReadWrite_All|AZMGGroupMember_ReadWrite_All|AZMGGroup_ReadWrite_All|AZMGRoleManagement_ReadWrite_Directory|AZMGServicePrincipalEndpoint_ReadWrite_All';

/** Entra ID and Azure: roles and their holders, apps and service principals, shortest paths, hygiene, hybrid paths. */
export const AZURE: Section[] = [
  {
    category: 'General',
    platform: AZ,
    queries: [
      {
        id: 'az-global-admins',
        name: 'All Global Administrators',
        description: 'Principals holding Global Administrator over a tenant, directly or through groups.',
        query: cypher('MATCH p = (:AZBase)-[:AZGlobalAdmin*1..]->(:AZTenant)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'az-privileged-role-members',
        name: 'All members of high privileged roles',
        description: 'Holders of Entra roles that control identities or credentials, directly or through a group.',
        query: cypher(
          'MATCH p = (r:AZRole)<-[:AZHasRole|AZMemberOf*1..2]-(:AZBase)',
          `WHERE ${PRIVILEGED_ROLE('r')}`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'az-tier-zero',
        name: 'All Tier Zero Entra and Azure objects',
        description: 'Every Entra ID and Azure object in the Tier Zero zone.',
        query: cypher(`MATCH (t:AZBase:${TIER_ZERO})`, 'RETURN t', 'LIMIT 1000'),
      },
      {
        id: 'az-role-eligible-direct',
        name: 'Entra Users with Entra Admin Role direct eligibility',
        description: 'Users eligible (PIM) to activate an Entra role.',
        query: cypher('MATCH p = (:AZUser)-[:AZRoleEligible]->(:AZRole)', 'RETURN p', 'LIMIT 100'),
      },
      {
        id: 'az-role-eligible-group',
        name: 'Entra Users with Entra Admin Roles group delegated eligibility',
        description: 'Users eligible to activate an Entra role through a group.',
        query: cypher('MATCH p = (:AZUser)-[:AZMemberOf]->(:AZGroup)-[:AZRoleEligible]->(:AZRole)', 'RETURN p', 'LIMIT 100'),
      },
      {
        id: 'az-role-approver-direct',
        name: 'Entra Users with Entra Admin Role approval (direct)',
        description: 'Users who approve activations of an Entra role.',
        query: cypher('MATCH p = (:AZUser)-[:AZRoleApprover]->(:AZRole)', 'RETURN p', 'LIMIT 100'),
      },
      {
        id: 'az-role-approver-group',
        name: 'Entra Users with Entra Admin Role approval (group delegated)',
        description: 'Users who approve activations of an Entra role through a group.',
        query: cypher('MATCH p = (:AZUser)-[:AZMemberOf]->(:AZGroup)-[:AZRoleApprover]->(:AZRole)', 'RETURN p', 'LIMIT 100'),
      },
    ],
  },
  {
    category: 'Shortest Paths',
    platform: AZ,
    queries: [
      {
        id: 'az-paths-users-to-tier-zero',
        name: 'Shortest paths from Entra Users to Tier Zero / High Value targets',
        description: 'Attack paths from Entra users to Tier Zero objects.',
        query: cypher(
          `MATCH p = shortestPath((s:AZUser)-[:AZ_ATTACK_PATHS*1..]->(t:AZBase:${TIER_ZERO}))`,
          'WHERE s <> t',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'az-paths-to-privileged-roles',
        name: 'Shortest paths to privileged roles',
        description: 'Attack paths to Entra roles that control identities or credentials.',
        query: cypher(
          `MATCH p = shortestPath((s:AZBase)-[:AZ_ATTACK_PATHS*1..]->(r:AZRole))`,
          `WHERE ${PRIVILEGED_ROLE('r')} AND s <> r`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'az-paths-apps-to-tier-zero',
        name: 'Shortest paths from Azure Applications to Tier Zero / High Value targets',
        description: 'Attack paths from app registrations to Tier Zero objects.',
        query: cypher(
          `MATCH p = shortestPath((s:AZApp)-[:AZ_ATTACK_PATHS*1..]->(t:AZBase:${TIER_ZERO}))`,
          'WHERE s <> t',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'az-paths-to-subscriptions',
        name: 'Shortest paths to Azure Subscriptions',
        description: 'Attack paths to Azure subscriptions.',
        query: cypher(
          `MATCH p = shortestPath((s:AZBase)-[:AZ_ATTACK_PATHS*1..]->(t:AZSubscription))`,
          'WHERE s <> t',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
    ],
  },
  {
    category: 'Microsoft Graph',
    platform: AZ,
    queries: [
      {
        id: 'az-mg-grant-app-roles',
        name: 'All service principals with Microsoft Graph privilege to grant arbitrary App Roles',
        description: 'Service principals that can grant themselves any Microsoft Graph app role, hence any privilege.',
        query: cypher('MATCH p = (:AZServicePrincipal)-[:AZMGGrantAppRoles]->(:AZTenant)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'az-mg-dangerous-app-roles',
        name: 'All service principals with Microsoft Graph App Role assignments',
        description: 'Service principals holding Microsoft Graph app roles that control directory objects.',
        query: cypher(`MATCH p = (:AZServicePrincipal)-[:${DANGEROUS_APP_ROLES}]->(:AZServicePrincipal)`, 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'az-privileged-service-principals',
        name: 'Service principals holding privileged Entra roles',
        description: 'Service principals (hence whoever controls their app) that hold an Entra role controlling identities.',
        query: cypher(
          'MATCH p = (:AZServicePrincipal)-[:AZHasRole]->(r:AZRole)',
          `WHERE ${PRIVILEGED_ROLE('r')}`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'az-app-controllers',
        name: 'Who can add secrets to apps and service principals',
        description: 'Principals that can add credentials to an app or service principal and act as it.',
        query: cypher(
          'MATCH p = (:AZBase)-[:AZAddSecret|AZMGAddSecret|AZAddOwner|AZMGAddOwner|AZOwns]->(t:AZBase)',
          'WHERE t:AZApp OR t:AZServicePrincipal',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
    ],
  },
  {
    category: 'Azure Hygiene',
    platform: AZ,
    queries: [
      {
        id: 'az-foreign-tier-zero',
        name: 'Foreign principals in Tier Zero / High Value targets',
        description: 'Tier Zero service principals of apps owned by another tenant.',
        query: cypher(
          `MATCH (n:AZServicePrincipal:${TIER_ZERO})`,
          "WHERE n.appownerorganizationid CONTAINS '-' AND toUpper(n.appownerorganizationid) <> toUpper(n.tenantid)",
          'RETURN n',
          'LIMIT 100',
        ),
      },
      {
        id: 'az-tier-zero-ad-synced',
        name: 'Tier Zero AD principals synchronized with Entra ID',
        description: 'Entra principals synchronized from a Tier Zero Active Directory principal.',
        query: cypher(
          // The Tier Zero object ids first (a few hundred), then one pass over Entra: not a join of every pair.
          `MATCH (ad:Base:${TIER_ZERO})`,
          'WITH collect(ad.objectid) AS tierZero',
          'MATCH (entra:AZBase)',
          'WHERE entra.onpremsyncenabled = true AND entra.onpremid IN tierZero',
          'RETURN entra',
          'LIMIT 100',
        ),
      },
      {
        id: 'az-tier-zero-external-users',
        name: 'Tier Zero / High Value external Entra ID users',
        description: 'Guest (#EXT#) users in Tier Zero.',
        query: cypher(`MATCH (n:AZUser:${TIER_ZERO})`, "WHERE n.name CONTAINS '#EXT#@'", 'RETURN n', 'LIMIT 100'),
      },
      {
        id: 'az-tier-zero-disabled',
        name: 'Disabled Tier Zero / High Value principals',
        description: 'Tier Zero Entra principals that are disabled.',
        query: cypher(`MATCH (n:AZBase:${TIER_ZERO})`, 'WHERE n.enabled = false', 'RETURN n', 'LIMIT 100'),
      },
    ],
  },
  {
    category: 'Cross Platform Attack Paths',
    platform: AZ,
    queries: [
      {
        id: 'hybrid-entra-to-domain-admins',
        name: 'Entra Users synced from On-Prem Users added to Domain Admins group',
        description: 'Entra users whose on-premises account is a Domain Admin.',
        query: cypher(
          'MATCH p = (:AZUser)-[:SyncedToADUser]->(:User)-[:MemberOf]->(g:Group)',
          "WHERE g.objectid ENDS WITH '-512'",
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'hybrid-synced-entra-roles',
        name: 'On-Prem Users synced to Entra Users with Entra Admin Roles (direct)',
        description: 'On-premises users whose Entra account holds an Entra role.',
        query: cypher('MATCH p = (:User)-[:SyncedToEntraUser]->(:AZUser)-[:AZHasRole]->(:AZRole)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'hybrid-synced-entra-roles-group',
        name: 'On-Prem Users synced to Entra Users with Entra Admin Roles (group delegated)',
        description: 'On-premises users whose Entra account holds an Entra role through a group.',
        query: cypher(
          'MATCH p = (:User)-[:SyncedToEntraUser]->(:AZUser)-[:AZMemberOf]->(:AZGroup)-[:AZHasRole]->(:AZRole)',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'hybrid-synced-rm-roles',
        name: 'On-Prem Users synced to Entra Users with Azure RM Roles (direct)',
        description: 'On-premises users whose Entra account holds an Azure RM role over a resource.',
        query: cypher(`MATCH p = (:User)-[:SyncedToEntraUser]->(:AZUser)-[:${RM_ROLES}]->(:AZBase)`, 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'hybrid-synced-owners',
        name: 'On-Prem Users synced to Entra Users that Own Entra Objects',
        description: 'On-premises users whose Entra account owns Entra objects.',
        query: cypher('MATCH p = (:User)-[:SyncedToEntraUser]->(:AZUser)-[:AZOwns]->(:AZBase)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'hybrid-synced-eligible',
        name: 'Synced Entra Users with Entra Admin Role direct eligibility',
        description: 'On-premises users whose Entra account is eligible for an Entra role.',
        query: cypher('MATCH p = (:User)-[:SyncedToEntraUser]->(:AZUser)-[:AZRoleEligible]->(:AZRole)', 'RETURN p', 'LIMIT 100'),
      },
    ],
  },
];
