import type { Properties } from '../graph/model.js';
import { bool, field, list, obj, refs, str } from './fields.js';
import type { Out } from './sharphound-out.js';

/** Local groups SharpHound v4 reported by field name (and GPO changes still do), with their well-known RIDs. */
export const LOCAL_GROUP_FIELDS = [
  ['LocalAdmins', 544],
  ['RemoteDesktopUsers', 555],
  ['DcomUsers', 562],
  ['PSRemoteUsers', 580],
] as const;

/** SharpHound's placeholder name for a DC's local group that is really the domain's BUILTIN group. */
const IGNORED_NAME = 'IGNOREME';

const USER_RIGHTS: Readonly<Record<string, string>> = {
  SeRemoteInteractiveLogonRight: 'RemoteInteractiveLogonRight',
  SeBackupPrivilege: 'BackupPrivilege',
  SeRestorePrivilege: 'RestorePrivilege',
};

const collected = (o: unknown) => field(o, 'Collected') === true;

/** BloodHound reads a value under Properties first and falls back to the top-level field (v5 files have only the former). */
function propOr(raw: unknown, prop: string, top: string): unknown {
  const v = field(obj(raw, 'Properties'), prop);
  return v === undefined || v === null ? field(raw, top) : v;
}

/** (object)-[CoerceToTGT]->(domain) for unconstrained delegation; v5 files keep both inputs under Properties only. */
export function coerceToTGT(out: Out, raw: unknown, oid: string, kind: string): void {
  const unconstrained = propOr(raw, 'unconstraineddelegation', 'UnconstrainedDelegation') === true;
  const domain = propOr(raw, 'domainsid', 'DomainSID');
  if (unconstrained && typeof domain === 'string' && domain)
    out.edge(oid, domain.toUpperCase(), 'CoerceToTGT', { isacl: false }, kind, 'Domain');
}

/** Computer node properties BloodHound derives from API results (ein ConvertComputerToNode, ParseDCRegistryData). */
export function computerProperties(raw: unknown, props: Properties): void {
  const webclient = obj(raw, 'IsWebClientRunning');
  if (collected(webclient)) props.webclientrunning = field(webclient, 'Result') === true;
  const smb = obj(raw, 'SmbInfo');
  if (collected(smb)) props.smbsigning = bool(obj(smb, 'Result'), 'SigningEnabled');
  const ntlm = obj(raw, 'NTLMRegistryData');
  if (collected(ntlm)) {
    const r = obj(ntlm, 'Result');
    const n = (k: string) => {
      const v = field(r, k);
      return typeof v === 'number' ? v : null;
    };
    props.restrictoutboundntlm = n('RestrictSendingNtlmTraffic') === 2;
    props.restrictreceivingntlmtraffic = n('RestrictReceivingNTLMTraffic') === 2;
    props.requiresecuritysignature = (n('RequireSecuritySignature') ?? 0) !== 0;
    props.enablesecuritysignature = (n('EnableSecuritySignature') ?? 0) !== 0;
    props.usemachineid = (n('UseMachineId') ?? 0) !== 0;
    for (const [prop, key] of [
      ['ntlmminclientsec', 'NtlmMinClientSec'],
      ['ntlmminserversec', 'NtlmMinServerSec'],
      ['lmcompatibilitylevel', 'LmCompatibilityLevel'],
    ] as const) {
      const v = n(key);
      if (v !== null) props[prop] = v;
    }
    const servers = field(r, 'ClientAllowedNTLMServers');
    if (Array.isArray(servers)) props.clientallowedntlmservers = servers.filter((s) => typeof s === 'string');
  }
  for (const [from, to] of [
    ['ldapenabled', 'ldapavailable'],
    ['ldapsenabled', 'ldapsavailable'],
  ] as const) {
    if (from in props) {
      props[to] = props[from]!;
      delete props[from];
    }
  }
  dcRegistry(obj(raw, 'DCRegistryData'), props);
}

const MAPPING_METHODS: readonly [number, string][] = [
  [0x01, '0x01: One-to-one (subject/issuer)'],
  [0x02, '0x02: Many-to-one (issuer certificate)'],
  [0x04, '0x04: User principal name (UPN/SAN)'],
  [0x08, '0x08: Kerberos service-for-user (S4U) certificate'],
  [0x10, '0x10: Kerberos service-for-user (S4U) explicit certificate'],
];
const NOT_EXISTING = 'Registry value does not exist';
const BINDING: Readonly<Record<number, string>> = {
  [-1]: NOT_EXISTING,
  0: 'Disabled',
  1: 'Compatibility mode',
  2: 'Full enforcement mode',
};

/** The inputs of ESC9/ESC10 read from a DC's registry, raw and readable. */
function dcRegistry(reg: unknown, props: Properties): void {
  const mapping = obj(reg, 'CertificateMappingMethods');
  const value = (o: unknown) => {
    const v = field(o, 'Value');
    return typeof v === 'number' ? v : 0;
  };
  if (collected(mapping)) {
    const v = value(mapping);
    props.certificatemappingmethodsraw = v;
    props.certificatemappingmethods = v === -1 ? [NOT_EXISTING] : MAPPING_METHODS.filter(([bit]) => (v & bit) !== 0).map(([, s]) => s);
  }
  const binding = obj(reg, 'StrongCertificateBindingEnforcement');
  if (collected(binding)) {
    const v = value(binding);
    props.strongcertificatebindingenforcementraw = v;
    if (BINDING[v] !== undefined) props.strongcertificatebindingenforcement = BINDING[v];
  }
  const netlogon = obj(reg, 'VulnerableNetlogonSecurityDescriptor');
  if (netlogon) {
    props.vulnerablenetlogonsecuritydescriptorcollected = collected(netlogon);
    const v = field(netlogon, 'Value');
    if (collected(netlogon) && typeof v === 'string') props.vulnerablenetlogonsecuritydescriptor = v;
  }
}

/** Sessions, local groups and user rights of a computer (ein ParseComputerMiscData, ConvertLocalGroup, ParseUserRightData). */
export function computerRelationships(out: Out, raw: unknown, oid: string, props: Properties): void {
  for (const key of ['Sessions', 'PrivilegedSessions', 'RegistrySessions']) {
    const s = obj(raw, key);
    if (!collected(s)) continue;
    for (const r of list(s, 'Results')) {
      const user = str(r, 'UserSID')?.toUpperCase();
      const computer = str(r, 'ComputerSID')?.toUpperCase() ?? oid;
      if (user) out.edge(computer, user, 'HasSession', { isacl: false }, 'Computer', 'User');
    }
  }
  const groups = list(raw, 'LocalGroups');
  for (const lg of groups) localGroup(out, lg, oid);
  // SharpHound v4 carried the four local groups as separate fields; map them onto the same local-group nodes.
  if (!groups.length) {
    for (const [key, rid] of LOCAL_GROUP_FIELDS) {
      const g = obj(raw, key);
      if (g && field(g, 'Collected') !== false && list(g, 'Results').length)
        localGroup(out, { Collected: true, Results: list(g, 'Results'), ObjectIdentifier: `${oid}-${rid}` }, oid);
    }
  }
  for (const right of list(raw, 'UserRights')) {
    const kind = USER_RIGHTS[str(right, 'Privilege') ?? ''];
    const grants = refs(right, 'Results');
    if (!kind || !collected(right) || !grants.length) continue;
    props.hasura = true;
    for (const p of grants) out.edge(p.id, oid, kind, { isacl: false }, p.kind, 'Computer');
  }
}

/**
 * A computer's local group: its node (unless SharpHound named it IGNOREME: on a DC the "local" group is the
 * domain's BUILTIN group, whose real name comes from the domain's own data), LocalToComputer, MemberOfLocalGroup
 * from each member, and a node for each local account named in it.
 */
function localGroup(out: Out, lg: unknown, computer: string): void {
  const id = str(lg, 'ObjectIdentifier')?.toUpperCase();
  const name = str(lg, 'Name');
  const members = refs(lg, 'Results');
  if (!id || !collected(lg)) return;
  if (!members.length && !name?.toUpperCase().startsWith('DIRECT ACCESS USERS')) return;
  if (name !== IGNORED_NAME) out.node(id, ['Base', 'ADLocalGroup'], name ? { name } : {});
  out.edge(id, computer, 'LocalToComputer', { isacl: false }, 'ADLocalGroup', 'Computer');
  for (const m of members) out.edge(m.id, id, 'MemberOfLocalGroup', { isacl: false }, m.kind, 'ADLocalGroup');
  for (const ln of list(lg, 'LocalNames')) {
    const lid = str(ln, 'ObjectIdentifier')?.toUpperCase();
    if (lid) out.node(lid, ['Base'], { name: str(ln, 'PrincipalName') ?? lid });
  }
}

/** GPO-applied local group membership (OUs and domains): one local group per affected computer. */
export function gpoChanges(out: Out, raw: unknown): void {
  const changes = obj(raw, 'GPOChanges');
  if (!changes) return;
  const computers = refs(changes, 'AffectedComputers');
  for (const [key, rid] of LOCAL_GROUP_FIELDS) {
    const members = refs(changes, key);
    if (!members.length) continue;
    for (const c of computers) {
      const id = `${c.id}-${rid}`;
      out.node(id, ['Base', 'ADLocalGroup'], {});
      out.edge(id, c.id, 'LocalToComputer', { isacl: false }, 'ADLocalGroup', 'Computer');
      for (const m of members) out.edge(m.id, id, 'MemberOfLocalGroup', { isacl: false }, m.kind, 'ADLocalGroup');
    }
  }
}
