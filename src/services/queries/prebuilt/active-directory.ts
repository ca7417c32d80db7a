import { cypher, OWNED, TIER_ZERO, type Section } from './types.js';

const AD = 'Active Directory' as const;

/** A user one can request a service ticket for and crack offline: an enabled account with an SPN (not krbtgt, not a managed account). */
const KERBEROASTABLE = (u: string) =>
  [
    `${u}.hasspn = true`,
    `${u}.enabled = true`,
    `NOT ${u}.objectid ENDS WITH '-502'`,
    `COALESCE(${u}.gmsa, false) = false`,
    `COALESCE(${u}.msa, false) = false`,
  ].join(' AND ');

/** Domain Admins, Domain Users, Domain Controllers: by their well-known RID. */
const DOMAIN_ADMINS = (g: string) => `${g}.objectid ENDS WITH '-512'`;
const DOMAIN_USERS = (g: string) => `${g}.objectid ENDS WITH '-513'`;

/** Active Directory: domain structure, dangerous privileges, Kerberos, delegation, shortest paths, hygiene. */
export const ACTIVE_DIRECTORY: Section[] = [
  {
    category: 'Domain Information',
    platform: AD,
    queries: [
      {
        id: 'ad-domain-admins',
        name: 'All Domain Admins',
        description: 'Users and computers that are members of a Domain Admins group, directly or through nested groups.',
        query: cypher(
          'MATCH p = (member)-[:MemberOf*1..]->(admins:Group)',
          `WHERE ${DOMAIN_ADMINS('admins')} AND (member:User OR member:Computer)`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-tier-zero',
        name: 'All Tier Zero objects',
        description: 'Every Active Directory object in the Tier Zero zone.',
        query: cypher(`MATCH (t:Base:${TIER_ZERO})`, 'RETURN t', 'LIMIT 1000'),
      },
      {
        id: 'ad-domain-controllers',
        name: 'All Domain Controllers',
        description: 'Computers that are domain controllers, with the domain each serves.',
        query: cypher('MATCH p = (:Computer)-[:DCFor]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-domain-trusts',
        name: 'Map domain trusts',
        description: 'Trusts between domains, within and across forests.',
        query: cypher('MATCH p = (:Domain)-[:SameForestTrust|CrossForestTrust]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-tier-zero-locations',
        name: 'Locations of Tier Zero / High Value objects',
        description: 'Where Tier Zero objects sit in the OU and container tree of their domain.',
        query: cypher(`MATCH p = (:Domain)-[:Contains*1..]->(:${TIER_ZERO})`, 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-ou-structure',
        name: 'Map OU structure',
        description: 'The organizational units of each domain and how they nest.',
        query: cypher('MATCH p = (:Domain)-[:Contains*1..]->(:OU)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-adminsdholder-protected',
        name: 'Location of AdminSDHolder Protected objects',
        description: 'Objects whose ACL SDProp resets from AdminSDHolder, and where they sit in the domain.',
        query: cypher('MATCH p = (:Domain)-[:Contains*1..]->(n:Base)', 'WHERE n.adminsdholderprotected = true', 'RETURN p', 'LIMIT 1000'),
      },
    ],
  },
  {
    category: 'Dangerous Privileges',
    platform: AD,
    queries: [
      {
        id: 'ad-dcsync',
        name: 'Principals with DCSync privileges',
        description: 'Principals that can replicate secrets from a domain: DCSync, or the rights that include it.',
        query: cypher('MATCH p = (:Base)-[:DCSync|AllExtendedRights|GenericAll]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-foreign-group-membership',
        name: 'Principals with foreign domain group membership',
        description: 'Principals that are members of a group of another domain.',
        query: cypher('MATCH p = (s:Base)-[:MemberOf]->(g:Group)', 'WHERE s.domainsid <> g.domainsid', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-domain-users-local-admin',
        name: 'Computers where Domain Users are local administrators',
        description: 'Every user of the domain is an administrator of these computers.',
        query: cypher('MATCH p = (g:Group)-[:AdminTo]->(:Computer)', `WHERE ${DOMAIN_USERS('g')}`, 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-domain-users-laps',
        name: 'Computers where Domain Users can read LAPS passwords',
        description: "Every user of the domain can read these computers' local administrator password.",
        query: cypher(
          'MATCH p = (g:Group)-[:AllExtendedRights|ReadLAPSPassword]->(:Computer)',
          `WHERE ${DOMAIN_USERS('g')}`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-domain-users-tier-zero-paths',
        name: 'Paths from Domain Users to Tier Zero / High Value targets',
        description: 'The shortest attack paths every user of the domain has to Tier Zero.',
        query: cypher(
          `MATCH p = shortestPath((g:Group)-[:AD_ATTACK_PATHS*1..]->(t:${TIER_ZERO}))`,
          `WHERE ${DOMAIN_USERS('g')} AND g <> t`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-domain-users-rdp-workstations',
        name: 'Workstations where Domain Users can RDP',
        description: 'Workstations every user of the domain may log on to over RDP.',
        query: cypher(
          'MATCH p = (g:Group)-[:CanRDP]->(c:Computer)',
          `WHERE ${DOMAIN_USERS('g')} AND NOT toUpper(COALESCE(c.operatingsystem, '')) CONTAINS 'SERVER'`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-domain-users-rdp-servers',
        name: 'Servers where Domain Users can RDP',
        description: 'Servers every user of the domain may log on to over RDP.',
        query: cypher(
          'MATCH p = (g:Group)-[:CanRDP]->(c:Computer)',
          `WHERE ${DOMAIN_USERS('g')} AND toUpper(c.operatingsystem) CONTAINS 'SERVER'`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-domain-users-dangerous',
        name: 'Dangerous privileges for Domain Users groups',
        description: 'Attack-path edges (other than group membership) that start at a Domain Users group.',
        query: cypher(
          `MATCH p = (g:Group)-[r:AD_ATTACK_PATHS]->(:Base)`,
          `WHERE ${DOMAIN_USERS('g')} AND type(r) <> 'MemberOf'`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-domain-admin-sessions',
        name: 'Domain Admins logons to non-Domain Controllers',
        description: 'Sessions of Domain Admins on computers that are not domain controllers, where their credentials can be taken.',
        query: cypher(
          'MATCH (dc)-[:MemberOf*0..]->(dcs:Group)',
          "WHERE dcs.objectid ENDS WITH '-516'",
          'WITH collect(dc) AS controllers',
          'MATCH p = (c:Computer)-[:HasSession]->(:User)-[:MemberOf*1..]->(admins:Group)',
          `WHERE ${DOMAIN_ADMINS('admins')} AND NOT c IN controllers`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
    ],
  },
  {
    category: 'Kerberos Interaction',
    platform: AD,
    queries: [
      {
        id: 'ad-kerberoastable-tier-zero',
        name: 'Kerberoastable members of Tier Zero / High Value groups',
        description: 'Tier Zero users whose service tickets can be requested and cracked offline.',
        query: cypher(`MATCH (u:User:${TIER_ZERO})`, `WHERE ${KERBEROASTABLE('u')}`, 'RETURN u', 'LIMIT 100'),
      },
      {
        id: 'ad-kerberoastable',
        name: 'All Kerberoastable users',
        description: 'Enabled users with a service principal name: any domain user can request their tickets and crack them offline.',
        query: cypher('MATCH (u:User)', `WHERE ${KERBEROASTABLE('u')}`, 'RETURN u', 'LIMIT 100'),
      },
      {
        id: 'ad-kerberoastable-most-admin',
        name: 'Kerberoastable users with most admin privileges',
        description: 'Kerberoastable users ordered by how many computers they administer (directly or through groups).',
        query: cypher(
          'MATCH (u:User)',
          `WHERE ${KERBEROASTABLE('u')}`,
          'MATCH (u)-[:MemberOf|AdminTo*1..]->(c:Computer)',
          'WITH DISTINCT u, count(c) AS computers',
          'RETURN u',
          'ORDER BY computers DESC',
          'LIMIT 100',
        ),
      },
      {
        id: 'ad-asrep-roastable',
        name: 'AS-REP Roastable users (DontReqPreAuth)',
        description: 'Enabled users that do not require Kerberos pre-authentication: their AS-REP can be cracked offline.',
        query: cypher('MATCH (u:User)', 'WHERE u.dontreqpreauth = true AND u.enabled = true', 'RETURN u', 'LIMIT 100'),
      },
    ],
  },
  {
    category: 'Delegation',
    platform: AD,
    queries: [
      {
        id: 'ad-unconstrained-delegation',
        name: 'Non-Tier Zero principals trusted for unconstrained delegation',
        description: 'Accounts outside Tier Zero that receive forwardable TGTs of whoever authenticates to them.',
        query: cypher('MATCH (n:Base)', `WHERE n.unconstraineddelegation = true AND NOT n:${TIER_ZERO}`, 'RETURN n', 'LIMIT 1000'),
      },
      {
        id: 'ad-constrained-delegation',
        name: 'Constrained delegation',
        description: 'Principals allowed to delegate to services of these computers (msDS-AllowedToDelegateTo).',
        query: cypher('MATCH p = (:Base)-[:AllowedToDelegate]->(:Computer)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-resource-based-constrained-delegation',
        name: 'Resource-based constrained delegation',
        description: 'Principals a computer allows to act on behalf of users towards it (msDS-AllowedToActOnBehalfOfOtherIdentity).',
        query: cypher('MATCH p = (:Base)-[:AllowedToAct]->(:Computer)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-rbcd-writers',
        name: 'Principals that can configure resource-based constrained delegation',
        description: 'Principals that can write the delegation attribute (or account restrictions) of a computer.',
        query: cypher('MATCH p = (:Base)-[:AddAllowedToAct|WriteAccountRestrictions]->(:Computer)', 'RETURN p', 'LIMIT 1000'),
      },
    ],
  },
  {
    category: 'Shortest Paths',
    platform: AD,
    queries: [
      {
        id: 'ad-paths-to-unconstrained-delegation',
        name: 'Shortest paths to systems trusted for unconstrained delegation',
        description: 'Attack paths to computers that hold forwardable TGTs of those who authenticate to them.',
        query: cypher(
          `MATCH p = shortestPath((s)-[:AD_ATTACK_PATHS*1..]->(t:Computer))`,
          'WHERE t.unconstraineddelegation = true AND s <> t',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-paths-kerberoastable-to-domain-admins',
        name: 'Shortest paths to Domain Admins from Kerberoastable users',
        description: 'Attack paths from users whose password can be cracked offline to a Domain Admins group.',
        query: cypher(
          `MATCH p = shortestPath((s:User)-[:AD_ATTACK_PATHS*1..]->(t:Group))`,
          `WHERE ${KERBEROASTABLE('s')} AND ${DOMAIN_ADMINS('t')}`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-paths-to-tier-zero',
        name: 'Shortest paths to Tier Zero / High Value targets',
        description: 'Attack paths from any principal to a Tier Zero object.',
        query: cypher(`MATCH p = shortestPath((s)-[:AD_ATTACK_PATHS*1..]->(t:${TIER_ZERO}))`, 'WHERE s <> t', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'ad-paths-domain-users-to-tier-zero',
        name: 'Shortest paths from Domain Users to Tier Zero / High Value targets',
        description: 'Attack paths every user of the domain has, through its Domain Users group, to Tier Zero.',
        query: cypher(
          `MATCH p = shortestPath((s:Group)-[:AD_ATTACK_PATHS*1..]->(t:${TIER_ZERO}))`,
          `WHERE ${DOMAIN_USERS('s')} AND s <> t`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-paths-to-domain-admins',
        name: 'Shortest paths to Domain Admins',
        description: 'Attack paths from any principal to a Domain Admins group.',
        query: cypher(
          `MATCH p = shortestPath((s:Base)-[:AD_ATTACK_PATHS*1..]->(t:Group))`,
          `WHERE ${DOMAIN_ADMINS('t')} AND s <> t`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-paths-owned-to-tier-zero',
        name: 'Shortest paths from Owned objects to Tier Zero',
        description: 'Attack paths from objects marked as owned to Tier Zero.',
        query: cypher(
          `MATCH p = shortestPath((s:${OWNED})-[:AD_ATTACK_PATHS*1..]->(t:${TIER_ZERO}))`,
          'WHERE s <> t',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-paths-from-owned',
        name: 'Shortest paths from Owned objects',
        description: 'Where objects marked as owned lead: attack paths to every object they reach.',
        query: cypher(
          `MATCH p = shortestPath((s:Base:${OWNED})-[:AD_ATTACK_PATHS*1..]->(t:Base))`,
          'WHERE s <> t',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
    ],
  },
  {
    category: 'Active Directory Hygiene',
    platform: AD,
    queries: [
      {
        id: 'ad-tier-zero-inactive',
        name: 'Enabled Tier Zero / High Value principals inactive for 60 days',
        description: 'Tier Zero accounts that are enabled but have not logged on for 60 days (built-in and sync accounts left out).',
        query: cypher(
          'WITH datetime().epochseconds - 60 * 86400 AS cutoff',
          `MATCH (n:Base:${TIER_ZERO})`,
          'WHERE n.enabled = true AND n.lastlogontimestamp < cutoff AND n.lastlogon < cutoff AND n.whencreated < cutoff',
          "AND NOT n.objectid ENDS WITH '-500'",
          "AND NOT n.name STARTS WITH 'AZUREADKERBEROS.' AND NOT n.name STARTS WITH 'AZUREADSSOACC.'",
          'RETURN n',
        ),
      },
      {
        id: 'ad-tier-zero-no-smartcard',
        name: 'Tier Zero / High Value enabled users not requiring smart card authentication',
        description: 'Tier Zero users that can sign in with a password (Entra sync accounts left out).',
        query: cypher(
          `MATCH (u:User:${TIER_ZERO})`,
          'WHERE u.enabled = true AND u.smartcardrequired = false',
          "AND NOT u.name STARTS WITH 'MSOL_' AND NOT u.name STARTS WITH 'PROVAGENTGMSA' AND NOT u.name STARTS WITH 'ADSYNCMSA_'",
          'RETURN u',
        ),
      },
      {
        id: 'ad-machine-account-quota',
        name: 'Domains where any user can join a computer to the domain',
        description: 'Domains with a machine account quota above zero: any user can create computer accounts.',
        query: cypher('MATCH (d:Domain)', 'WHERE d.machineaccountquota > 0', 'RETURN d'),
      },
      {
        id: 'ad-unsupported-os',
        name: 'Computers with unsupported operating systems',
        description: 'Computers running Windows versions out of support.',
        query: cypher(
          'MATCH (c:Computer)',
          "WHERE c.operatingsystem =~ '(?i).*windows.* (2000|2003|2008|2012|xp|vista|7|8|me|nt).*'",
          'RETURN c',
          'LIMIT 100',
        ),
      },
      {
        id: 'ad-password-not-required',
        name: 'Users which do not require password to authenticate',
        description: 'Users with PASSWD_NOTREQD: their password may be empty.',
        query: cypher('MATCH (u:User)', 'WHERE u.passwordnotreqd = true', 'RETURN u', 'LIMIT 100'),
      },
      {
        id: 'ad-password-not-rotated',
        name: 'Users with passwords not rotated in over 1 year',
        description: 'Users whose password was last set more than a year ago.',
        query: cypher(
          'WITH datetime().epochseconds - 365 * 86400 AS cutoff',
          'MATCH (u:User)',
          'WHERE u.pwdlastset < cutoff AND NOT u.pwdlastset IN [-1, 0]',
          'RETURN u',
          'LIMIT 100',
        ),
      },
      {
        id: 'ad-tier-zero-nested-groups',
        name: 'Nested groups within Tier Zero / High Value',
        description: 'Groups nested into Tier Zero groups, other than Domain Admins and Enterprise Admins.',
        query: cypher(
          `MATCH p = (s:Group)-[:MemberOf*1..]->(t:Group:${TIER_ZERO})`,
          "WHERE NOT s.objectid ENDS WITH '-512' AND NOT s.objectid ENDS WITH '-519'",
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'ad-tier-zero-disabled',
        name: 'Disabled Tier Zero / High Value principals',
        description: 'Tier Zero accounts that are disabled (krbtgt and the built-in Administrator left out).',
        query: cypher(
          `MATCH (n:Base:${TIER_ZERO})`,
          "WHERE n.enabled = false AND NOT n.objectid ENDS WITH '-502' AND NOT n.objectid ENDS WITH '-500'",
          'RETURN n',
          'LIMIT 100',
        ),
      },
      {
        id: 'ad-reversible-encryption',
        name: 'Principals with passwords stored using reversible encryption',
        description: 'Accounts whose password is stored in a form that can be decrypted.',
        query: cypher('MATCH (n:Base)', 'WHERE n.encryptedtextpwdallowed = true', 'RETURN n'),
      },
      {
        id: 'ad-des-only',
        name: 'Principals with DES-only Kerberos authentication',
        description: 'Enabled accounts restricted to DES keys.',
        query: cypher('MATCH (n:Base)', 'WHERE n.enabled = true AND n.usedeskeyonly = true', 'RETURN n'),
      },
      {
        id: 'ad-weak-kerberos-encryption',
        name: 'Principals with weak supported Kerberos encryption types',
        description: 'Accounts that accept DES or RC4 Kerberos encryption.',
        query: cypher(
          'MATCH (n:Base)',
          "WHERE ANY(t IN COALESCE(n.supportedencryptiontypes, []) WHERE t IN ['DES-CBC-CRC', 'DES-CBC-MD5', 'RC4-HMAC-MD5'])",
          'RETURN n',
        ),
      },
      {
        id: 'ad-tier-zero-password-never-expires',
        name: 'Tier Zero / High Value users with non-expiring passwords',
        description: 'Enabled Tier Zero users whose password never expires.',
        query: cypher(`MATCH (u:User:${TIER_ZERO})`, 'WHERE u.enabled = true AND u.pwdneverexpires = true', 'RETURN u', 'LIMIT 100'),
      },
      {
        id: 'ad-tier-zero-not-adminsdholder',
        name: 'Tier Zero principals without AdminSDHolder protection',
        description: 'Tier Zero objects whose ACL SDProp does not protect.',
        query: cypher(`MATCH (n:Base:${TIER_ZERO})`, 'WHERE n.adminsdholderprotected = false', 'RETURN n', 'LIMIT 500'),
      },
      {
        id: 'ad-cross-forest-abusable',
        name: 'Cross-forest trusts with abusable configuration',
        description: 'Forest trusts across which SID history can be spoofed or TGT delegation abused.',
        query: cypher('MATCH p = (:Domain)-[:SpoofSIDHistory|AbuseTGTDelegation]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
    ],
  },
];
