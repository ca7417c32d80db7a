import { ROLE } from './steps/azure/kinds.js';
import type { DefaultSelector } from './tier-zero-rules.js';

const selector = (name: string, rule: string, description: string): DefaultSelector => ({ name, rule, description });
/** Every node of one kind. */
const kind = (name: string, nodeKind: string, description: string) => selector(name, `kind:${nodeKind}`, description);
/** The AD user or group whose SID ends with `suffix` (a well-known RID or a builtin SID). */
const user = (name: string, suffix: string, description: string) => selector(name, `kind:User objectid$=${suffix}`, description);
const group = (name: string, suffix: string, description: string) => selector(name, `kind:Group objectid$=${suffix}`, description);
/** The Entra role of a template id, in every tenant (its object id is `TEMPLATEID@TENANTID`). */
const azRole = (name: string, templateId: string, description: string) =>
  selector(name, `kind:AZRole objectid^=${templateId.toUpperCase()}@`, description);

/**
 * The seeded selectors of the Tier Zero zone: BloodHound's default Tier Zero selectors (all enabled, as in its GA
 * release), written as our rules, plus Incoming Forest Trust Builders and the Domain Controllers OU. Migrations 0010
 * and 0067 seed the same list; analysis uses it when it is run without the zone's stored selectors (CLI, benchmarks).
 */
export const DEFAULT_TIER_ZERO_SELECTORS: readonly DefaultSelector[] = [
  kind('Domain root object', 'Domain', 'Control of the domain root object compromises the domain (for example DCSync).'),
  user('Administrator', '-500', 'The built-in Administrator has admin access to the DCs.'),
  user('KRBTGT objects', '-502', 'Its keys sign every Kerberos ticket of the domain.'),
  group('Domain Admins', '-512', 'Full control over most of the directory.'),
  group('Domain Controllers', '-516', 'Holds GetChangesAll on the domain; membership controls replication.'),
  group('Cert Publishers', '-517', 'Full control of root and AIA CA objects (and sometimes the NTAuth store).'),
  group('Schema Admins', '-518', 'Controls the schema, hence the default ACL of every future object.'),
  group('Enterprise Admins', '-519', 'Full control over most of the forest.'),
  group('Key Admins', '-526', 'Can write msDS-KeyCredentialLink on users and computers of the domain (shadow credentials).'),
  group('Enterprise Key Admins', '-527', 'Can write msDS-KeyCredentialLink on users and computers of the forest (shadow credentials).'),
  group('Enterprise Domain Controllers', '-1-5-9', 'Holds GetChangesAll; membership controls replication.'),
  group('Administrators', 'S-1-5-32-544', 'Full control over most of the directory.'),
  group('Account Operators', 'S-1-5-32-548', 'GenericAll on users, groups and computers not protected by AdminSDHolder.'),
  group('Server Operators', 'S-1-5-32-549', 'Local privileges and logon on the domain controllers.'),
  group('Print Operators', 'S-1-5-32-550', 'Loads device drivers and logs on locally on the domain controllers.'),
  group('Backup Operators', 'S-1-5-32-551', 'Backup and restore privileges on the domain controllers (registry and NTDS).'),
  group('Incoming Forest Trust Builders', 'S-1-5-32-557', 'Can create incoming forest trusts to the forest root domain.'),
  group('Performance Log Users', 'S-1-5-32-559', 'DCOM privileges on the domain controllers.'),
  group('Distributed COM Users', 'S-1-5-32-562', 'DCOM privileges on the domain controllers.'),
  group('Cryptographic Operators', 'S-1-5-32-569', 'Cryptographic privileges on the domain controllers.'),
  selector('DNS Admins', 'kind:Group name^=DNSADMINS@', 'Controls DNS, which Kerberos and the DCs depend on.'),
  selector(
    'AdminSDHolder',
    'kind:Container distinguishedname^="CN=ADMINSDHOLDER,CN=SYSTEM,"',
    'Its ACL is stamped on every protected account and group by SDProp.',
  ),
  selector(
    'Exchange Trusted Subsystem',
    'kind:Group name^="EXCHANGE TRUSTED SUBSYSTEM@"',
    'Can write altSecurityIdentities of users inheriting ACEs from the domain.',
  ),
  selector(
    'Exchange Windows Permissions',
    'kind:Group name^="EXCHANGE WINDOWS PERMISSIONS@"',
    'WriteDacl on users and groups inheriting ACEs from the domain (shared permission model).',
  ),
  selector(
    'Read-Only Domain Controllers',
    'kind:Computer MemberOf>objectid$=-521',
    'Control of an RODC computer object leads to an RODC golden ticket for a revealed Tier Zero principal.',
  ),
  selector(
    'Domain Controllers OU',
    'kind:OU distinguishedname^="OU=DOMAIN CONTROLLERS,DC="',
    'Holds the domain controllers; control of it (or its GPO links) controls them.',
  ),
  selector(
    'Enterprise CA Computers',
    'kind:Computer HostsCAService>kind:EnterpriseCA',
    'Admins of an enterprise CA host can forge certificates for anyone (golden certificate).',
  ),
  selector(
    'AZUREADSSOACC object',
    'kind:Computer samaccountname="AZUREADSSOACC$"',
    'The Seamless SSO account can impersonate any synced identity in Entra ID.',
  ),
  kind('NTAuth store', 'NTAuthStore', 'Decides which CAs may issue certificates for domain authentication.'),
  kind('Root CA object', 'RootCA', 'Certificates used for domain authentication must chain to a trusted root CA.'),
  kind('AIA CA (AD object)', 'AIACA', 'Deleting it breaks trust in certificates of Tier Zero principals.'),
  kind('Enterprise CA (AD object)', 'EnterpriseCA', 'Control of it publishes templates and redirects enrollment.'),
  kind('Certificate template', 'CertTemplate', 'Control of a template enables ESC4 once it is published.'),
  kind('AD site', 'Site', 'A GPO linked to a site applies to the domain controllers that are its servers.'),
  kind('Azure tenant object', 'AZTenant', 'Controls every identity, app and subscription of the tenant.'),
  azRole('Global Administrator', ROLE.globalAdmin, 'The highest privilege role in Entra ID.'),
  azRole('Privileged Role Administrator', ROLE.privilegedRoleAdmin, 'Can grant any admin role to any principal.'),
  azRole('Privileged Authentication Administrator', ROLE.privilegedAuthAdmin, 'Can reset any authentication method of any principal.'),
  azRole('Partner Tier2 Support', ROLE.partnerTier2Support, 'Can reset the password of any principal, Global Administrators included.'),
  azRole('Application Administrator', ROLE.applicationAdmin, 'Can add credentials to apps, hence act as Tier Zero service principals.'),
  azRole('Knowledge Administrator', ROLE.knowledgeAdmin, 'Controls non-role-assignable groups.'),
  azRole('Intune Administrator', ROLE.intuneAdmin, 'Runs scripts on managed devices and manages Conditional Access.'),
  azRole('Security Administrator', '194AE4CB-B126-40B2-BD5B-6091B380977D', 'Live Response on devices and Conditional Access management.'),
];
