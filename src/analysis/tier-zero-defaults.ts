import type { DefaultSelector } from './tier-zero-rules.js';

const group = (name: string, suffix: string, description: string): DefaultSelector => ({
  name,
  rule: `kind:Group objectid$=${suffix}`,
  description,
});
const azRole = (name: string, templateId: string, description: string): DefaultSelector => ({
  name,
  rule: `kind:AZRole objectid^=${templateId}@`,
  description,
});

/**
 * The seeded selectors of the Tier Zero zone: BloodHound's default Tier Zero selectors (all enabled, as in its GA
 * release), written as our rules, plus Incoming Forest Trust Builders and the Domain Controllers OU. Migration 0010
 * seeds the same list; analysis uses it when it is run without the zone's stored selectors (CLI, benchmarks).
 */
export const DEFAULT_TIER_ZERO_SELECTORS: readonly DefaultSelector[] = [
  {
    name: 'Domain root object',
    rule: 'kind:Domain',
    description: 'Control of the domain root object compromises the domain (for example DCSync).',
  },
  {
    name: 'AdminSDHolder',
    rule: 'kind:Container distinguishedname^="CN=ADMINSDHOLDER,CN=SYSTEM,"',
    description: 'Its ACL is stamped on every protected account and group by SDProp.',
  },
  { name: 'Administrator', rule: 'kind:User objectid$=-500', description: 'The built-in Administrator has admin access to the DCs.' },
  { name: 'KRBTGT objects', rule: 'kind:User objectid$=-502', description: 'Its keys sign every Kerberos ticket of the domain.' },
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
  { name: 'DNS Admins', rule: 'kind:Group name^=DNSADMINS@', description: 'Controls DNS, which Kerberos and the DCs depend on.' },
  {
    name: 'Exchange Trusted Subsystem',
    rule: 'kind:Group name^="EXCHANGE TRUSTED SUBSYSTEM@"',
    description: 'Can write altSecurityIdentities of users inheriting ACEs from the domain.',
  },
  {
    name: 'Exchange Windows Permissions',
    rule: 'kind:Group name^="EXCHANGE WINDOWS PERMISSIONS@"',
    description: 'WriteDacl on users and groups inheriting ACEs from the domain (shared permission model).',
  },
  {
    name: 'Read-Only Domain Controllers',
    rule: 'kind:Computer MemberOf>objectid$=-521',
    description: 'Control of an RODC computer object leads to an RODC golden ticket for a revealed Tier Zero principal.',
  },
  {
    name: 'Domain Controllers OU',
    rule: 'kind:OU distinguishedname^="OU=DOMAIN CONTROLLERS,DC="',
    description: 'Holds the domain controllers; control of it (or its GPO links) controls them.',
  },
  {
    name: 'Enterprise CA Computers',
    rule: 'kind:Computer HostsCAService>kind:EnterpriseCA',
    description: 'Admins of an enterprise CA host can forge certificates for anyone (golden certificate).',
  },
  {
    name: 'AZUREADSSOACC object',
    rule: 'kind:Computer samaccountname="AZUREADSSOACC$"',
    description: 'The Seamless SSO account can impersonate any synced identity in Entra ID.',
  },
  { name: 'NTAuth store', rule: 'kind:NTAuthStore', description: 'Decides which CAs may issue certificates for domain authentication.' },
  {
    name: 'Root CA object',
    rule: 'kind:RootCA',
    description: 'Certificates used for domain authentication must chain to a trusted root CA.',
  },
  { name: 'AIA CA (AD object)', rule: 'kind:AIACA', description: 'Deleting it breaks trust in certificates of Tier Zero principals.' },
  {
    name: 'Enterprise CA (AD object)',
    rule: 'kind:EnterpriseCA',
    description: 'Control of it publishes templates and redirects enrollment.',
  },
  { name: 'Certificate template', rule: 'kind:CertTemplate', description: 'Control of a template enables ESC4 once it is published.' },
  { name: 'Azure tenant object', rule: 'kind:AZTenant', description: 'Controls every identity, app and subscription of the tenant.' },
  azRole('Global Administrator', '62E90394-69F5-4237-9190-012177145E10', 'The highest privilege role in Entra ID.'),
  azRole('Privileged Role Administrator', 'E8611AB8-C189-46E8-94E1-60213AB1F814', 'Can grant any admin role to any principal.'),
  azRole(
    'Privileged Authentication Administrator',
    '7BE44C8A-ADAF-4E2A-84D6-AB2649E08A13',
    'Can reset any authentication method of any principal.',
  ),
  azRole(
    'Partner Tier2 Support',
    'E00E864A-17C5-4A4B-9C06-F5B95A8D5BD8',
    'Can reset the password of any principal, Global Administrators included.',
  ),
  azRole(
    'Application Administrator',
    '9B895D92-2CD3-44C7-9D02-A6AC2D5EA5C3',
    'Can add credentials to apps, hence act as Tier Zero service principals.',
  ),
  azRole('Knowledge Administrator', 'B5A8DCF3-09D5-43A9-A639-8E29EF291470', 'Controls non-role-assignable groups.'),
  azRole('Intune Administrator', '3A2C62DB-5318-420D-8D74-23AFFEE5D9D5', 'Runs scripts on managed devices and manages Conditional Access.'),
  azRole('Security Administrator', '194AE4CB-B126-40B2-BD5B-6091B380977D', 'Live Response on devices and Conditional Access management.'),
];
