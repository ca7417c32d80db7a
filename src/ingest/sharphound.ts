import { ACL_KINDS } from '../graph/kinds.js';
import type { EdgeInput, NodeInput, Properties } from '../graph/model.js';
import { bool, field, list, obj, ref, refs, str, type Obj, type Ref } from './fields.js';

/** SharpHound file types (meta.type) and the node kind of their objects. */
export const FILE_KINDS: Readonly<Record<string, string>> = {
  users: 'User',
  groups: 'Group',
  computers: 'Computer',
  domains: 'Domain',
  gpos: 'GPO',
  ous: 'OU',
  containers: 'Container',
  aiacas: 'AIACA',
  rootcas: 'RootCA',
  enterprisecas: 'EnterpriseCA',
  ntauthstores: 'NTAuthStore',
  certtemplates: 'CertTemplate',
  issuancepolicies: 'IssuancePolicy',
};

/** What one collected object becomes; `deletes` lists object ids to remove (files of type `deleted`). */
export interface Converted {
  nodes: NodeInput[];
  edges: EdgeInput[];
  deletes: string[];
  /** Set when the record's kind is not one this service converts: the caller counts and reports it. */
  unknownKind?: string;
}

// ACEs become edges of their right's name: the ACL relationships, plus the two SharpHound reports as ACEs
// although BloodHound does not count them among ACL relationships.
const ACL_RIGHTS: ReadonlySet<string> = new Set([...ACL_KINDS, 'AllowedToAct', 'DumpSMSAPassword']);

/** Local groups SharpHound reports by field name (v5 computers, GPO changes) and their well-known RIDs. */
const LOCAL_GROUP_FIELDS = [
  ['LocalAdmins', 544],
  ['RemoteDesktopUsers', 555],
  ['DcomUsers', 562],
  ['PSRemoteUsers', 580],
] as const;
const OWNER_RIGHTS_SUFFIX = 'S-1-3-4';
const SAME_FOREST_TRUSTS = new Set(['ParentChild', 'TreeRoot', 'CrossLink']);

const UPPER_CASED = new Set(['operatingsystem', 'distinguishedname']);

/** Properties as stored: nulls dropped, operating systems and distinguished names upper-cased (as BloodHound does). */
function cleanProperties(raw: Obj | undefined): Properties {
  const out: Properties = {};
  if (!raw) return out;
  for (const [k, v] of Object.entries(raw)) {
    if (v === null || v === undefined) continue;
    const key = k.toLowerCase();
    out[key] = UPPER_CASED.has(key) && typeof v === 'string' ? v.toUpperCase() : v;
  }
  return out;
}

/**
 * Converts one object of a SharpHound file (v5/v6) into graph writes, following BloodHound's converters
 * (cmd/api/src/services/graphify, packages/go/ein). `now` stamps lastseen/lastcollected.
 */
export class SharpHoundConverter {
  constructor(private readonly now: string) {}

  convert(type: string, raw: unknown): Converted {
    const out: Converted = { nodes: [], edges: [], deletes: [] };
    if (type === 'deleted') {
      const id = typeof raw === 'string' ? raw : str(raw, 'ObjectIdentifier');
      if (id) out.deletes.push(id.toUpperCase());
      return out;
    }
    if (type === 'sessions') {
      this.session(raw, out);
      return out;
    }
    const kind = FILE_KINDS[type];
    if (!kind) throw new Error(`unsupported SharpHound file type "${type}"`);
    const oid = str(raw, 'ObjectIdentifier')?.toUpperCase();
    if (!oid) throw new Error('an object has no ObjectIdentifier');
    const props: Properties = { ...cleanProperties(obj(raw, 'Properties')), objectid: oid, lastcollected: this.now, lastseen: this.now };
    if (bool(raw, 'IsDeleted')) props.isdeleted = true;
    const node: NodeInput = { objectid: oid, kinds: ['Base', kind], properties: props };
    out.nodes.push(node);

    this.aces(raw, oid, kind, props, out);
    const container = ref(field(raw, 'ContainedBy'));
    if (container) this.edge(out, container.id, oid, 'Contains', { isacl: false }, container.kind, kind);
    for (const child of refs(raw, 'ChildObjects')) this.edge(out, oid, child.id, 'Contains', { isacl: false }, kind, child.kind);
    for (const link of list(raw, 'Links')) {
      const gpo = str(link, 'GUID');
      if (gpo) this.edge(out, gpo.toUpperCase(), oid, 'GPLink', { enforced: bool(link, 'IsEnforced'), isacl: false }, 'GPO', kind);
    }
    for (const h of refs(raw, 'HasSIDHistory')) this.edge(out, oid, h.id, 'HasSIDHistory', { isacl: false }, kind, h.kind);

    switch (type) {
      case 'users':
        this.user(raw, oid, out);
        break;
      case 'groups':
        for (const m of refs(raw, 'Members'))
          this.edge(out, m.id, oid, 'MemberOf', { isacl: false, isprimarygroup: false }, m.kind, 'Group');
        break;
      case 'computers':
        this.computer(raw, oid, props, out);
        break;
      case 'domains':
        this.trusts(raw, oid, out);
        this.gpoChanges(raw, out);
        break;
      case 'ous':
        this.gpoChanges(raw, out);
        break;
      case 'rootcas':
        this.toDomain(raw, oid, 'RootCA', 'RootCAFor', out);
        break;
      case 'ntauthstores':
        this.toDomain(raw, oid, 'NTAuthStore', 'NTAuthStoreFor', out);
        break;
      case 'enterprisecas':
        this.enterpriseCA(raw, oid, props, out);
        break;
      case 'issuancepolicies': {
        const group = ref(field(raw, 'GroupLink'));
        if (group) this.edge(out, oid, group.id, 'OIDGroupLink', { isacl: false }, 'IssuancePolicy', group.kind);
        break;
      }
    }
    return out;
  }

  private edge(
    out: Converted,
    start: string,
    end: string,
    kind: string,
    properties: Properties,
    startKind?: string,
    endKind?: string,
  ): void {
    out.edges.push({ start, end, kind, properties: { ...properties, lastseen: this.now }, startKind, endKind });
  }

  /** ACEs: (principal)-[right]->(object). Owns/WriteOwner become the *Raw kinds analysis turns into the real ones. */
  private aces(raw: unknown, oid: string, kind: string, props: Properties, out: Converted): void {
    const limited: Map<string, string[]> = new Map();
    for (const ace of list(raw, 'Aces')) {
      const principal = str(ace, 'PrincipalSID')?.toUpperCase();
      const right = str(ace, 'RightName');
      if (!principal || !right) continue;
      if (right === 'Owns') props.ownersid = principal; // recorded even when the object owns itself
      if (principal === oid) continue;
      const pkind = ref({ ObjectIdentifier: principal, ObjectType: str(ace, 'PrincipalType') })!.kind;
      const inherited = bool(ace, 'IsInherited');
      const hash = str(ace, 'InheritanceHash') ?? '';
      if (principal.endsWith(OWNER_RIGHTS_SUFFIX)) {
        // Rights granted to OWNER RIGHTS apply to whoever owns the object: collected as OwnsLimitedRights.
        if (!limited.has(right)) limited.set(right, []);
        continue;
      }
      if (right === 'Owns') {
        this.edge(out, principal, oid, 'OwnsRaw', { isacl: true, isinherited: inherited }, pkind, kind);
      } else if (right === 'WriteOwner') {
        this.edge(out, principal, oid, 'WriteOwnerRaw', { isacl: true, isinherited: inherited, inheritancehash: hash }, pkind, kind);
      } else if (ACL_RIGHTS.has(right)) {
        this.edge(out, principal, oid, right, { isacl: true, isinherited: inherited, inheritancehash: hash }, pkind, kind);
      }
    }
    if (limited.size && typeof props.ownersid === 'string') {
      this.edge(out, props.ownersid, oid, 'OwnsLimitedRights', { isacl: true, privileges: [...limited.keys()] }, undefined, kind);
    }
  }

  private user(raw: unknown, oid: string, out: Converted): void {
    const primary = str(raw, 'PrimaryGroupSID');
    if (primary) this.edge(out, oid, primary.toUpperCase(), 'MemberOf', { isacl: false, isprimarygroup: true }, 'User', 'Group');
    for (const t of refs(raw, 'AllowedToDelegate')) this.edge(out, oid, t.id, 'AllowedToDelegate', { isacl: false }, 'User', t.kind);
    for (const spn of list(raw, 'SPNTargets')) {
      const computer = str(spn, 'ComputerSID');
      const service = str(spn, 'Service');
      if (computer && service)
        this.edge(out, oid, computer.toUpperCase(), service, { isacl: true, port: field(spn, 'Port') ?? null }, 'User', 'Computer');
    }
    this.coerceToTGT(raw, oid, 'User', out);
  }

  private coerceToTGT(raw: unknown, oid: string, kind: string, out: Converted): void {
    const domain = str(raw, 'DomainSID');
    const unconstrained = bool(raw, 'UnconstrainedDelegation') || field(obj(raw, 'Properties'), 'unconstraineddelegation') === true;
    if (domain && unconstrained) this.edge(out, oid, domain.toUpperCase(), 'CoerceToTGT', { isacl: false }, kind, 'Domain');
  }

  private computer(raw: unknown, oid: string, props: Properties, out: Converted): void {
    const primary = str(raw, 'PrimaryGroupSID');
    if (primary) this.edge(out, oid, primary.toUpperCase(), 'MemberOf', { isacl: false, isprimarygroup: true }, 'Computer', 'Group');
    for (const t of refs(raw, 'AllowedToDelegate')) this.edge(out, oid, t.id, 'AllowedToDelegate', { isacl: false }, 'Computer', t.kind);
    for (const a of refs(raw, 'AllowedToAct')) this.edge(out, a.id, oid, 'AllowedToAct', { isacl: false }, a.kind, 'Computer');
    for (const t of refs(raw, 'DumpSMSAPassword')) this.edge(out, oid, t.id, 'DumpSMSAPassword', { isacl: false }, 'Computer', t.kind);
    for (const key of ['Sessions', 'PrivilegedSessions', 'RegistrySessions']) {
      const s = obj(raw, key);
      if (!s || field(s, 'Collected') === false) continue;
      for (const r of list(s, 'Results')) {
        const user = str(r, 'UserSID');
        if (user) this.edge(out, oid, user.toUpperCase(), 'HasSession', { isacl: false }, 'Computer', 'User');
      }
    }
    const domain = str(raw, 'DomainSID');
    if (bool(raw, 'IsDC') && domain) this.edge(out, oid, domain.toUpperCase(), 'DCFor', { isacl: false }, 'Computer', 'Domain');
    else this.coerceToTGT(raw, oid, 'Computer', out);

    for (const lg of list(raw, 'LocalGroups')) this.localGroup(lg, oid, out);
    // v5 files carry the four local groups as separate fields; map them onto the same local-group nodes.
    if (!list(raw, 'LocalGroups').length) {
      for (const [key, rid] of LOCAL_GROUP_FIELDS) {
        const g = obj(raw, key);
        if (g && field(g, 'Collected') !== false && list(g, 'Results').length) {
          this.localGroup({ Collected: true, Results: list(g, 'Results'), ObjectIdentifier: `${oid}-${rid}` }, oid, out);
        }
      }
    }
    for (const right of list(raw, 'UserRights')) {
      if (field(right, 'Collected') === false) continue;
      const kind = {
        SeRemoteInteractiveLogonRight: 'RemoteInteractiveLogonRight',
        SeBackupPrivilege: 'BackupPrivilege',
        SeRestorePrivilege: 'RestorePrivilege',
      }[str(right, 'Privilege') ?? ''];
      if (!kind) continue;
      props.hasura = true;
      for (const p of refs(right, 'Results')) this.edge(out, p.id, oid, kind, { isacl: false }, p.kind, 'Computer');
    }
  }

  /** A computer's local group: its node, LocalToComputer, and MemberOfLocalGroup from each member. */
  private localGroup(lg: unknown, computer: string, out: Converted): void {
    const id = str(lg, 'ObjectIdentifier')?.toUpperCase();
    const name = str(lg, 'Name');
    const members = refs(lg, 'Results');
    if (!id || field(lg, 'Collected') === false) return;
    if (!members.length && !name?.toUpperCase().startsWith('DIRECT ACCESS USERS')) return;
    const props: Properties = { objectid: id, lastseen: this.now };
    if (name) props.name = name;
    out.nodes.push({ objectid: id, kinds: ['Base', 'ADLocalGroup'], properties: props });
    this.edge(out, id, computer, 'LocalToComputer', { isacl: false }, 'ADLocalGroup', 'Computer');
    for (const m of members) this.edge(out, m.id, id, 'MemberOfLocalGroup', { isacl: false }, m.kind, 'ADLocalGroup');
    for (const ln of list(lg, 'LocalNames')) {
      const lid = str(ln, 'ObjectIdentifier')?.toUpperCase();
      if (!lid) continue;
      out.nodes.push({
        objectid: lid,
        kinds: ['Base'],
        properties: { objectid: lid, name: str(ln, 'PrincipalName') ?? lid, lastseen: this.now },
      });
      this.edge(out, lid, id, 'MemberOfLocalGroup', { isacl: false }, 'Base', 'ADLocalGroup');
    }
  }

  /** GPO-applied local group membership (OUs and domains): one local group per affected computer. */
  private gpoChanges(raw: unknown, out: Converted): void {
    const changes = obj(raw, 'GPOChanges');
    if (!changes) return;
    const computers = refs(changes, 'AffectedComputers');
    for (const [key, rid] of LOCAL_GROUP_FIELDS) {
      const members = refs(changes, key);
      if (!members.length) continue;
      for (const c of computers) {
        const id = `${c.id}-${rid}`;
        out.nodes.push({ objectid: id, kinds: ['Base', 'ADLocalGroup'], properties: { objectid: id, lastseen: this.now } });
        this.edge(out, id, c.id, 'LocalToComputer', { isacl: false }, 'ADLocalGroup', 'Computer');
        for (const m of members) this.edge(out, m.id, id, 'MemberOfLocalGroup', { isacl: false }, m.kind, 'ADLocalGroup');
      }
    }
  }

  private trusts(raw: unknown, oid: string, out: Converted): void {
    for (const t of list(raw, 'Trusts')) {
      const target = str(t, 'TargetDomainSid')?.toUpperCase();
      if (!target) continue;
      const name = str(t, 'TargetDomainName')?.toUpperCase();
      out.nodes.push({
        objectid: target,
        kinds: ['Base', 'Domain'],
        properties: { objectid: target, lastseen: this.now, ...(name ? { name } : {}) },
      });
      const trustType = str(t, 'TrustType') ?? 'Unknown';
      const kind = SAME_FOREST_TRUSTS.has(trustType) ? 'SameForestTrust' : 'CrossForestTrust';
      const crossForest = kind === 'CrossForestTrust';
      const direction = str(t, 'TrustDirection') ?? '';
      const transitive = bool(t, 'IsTransitive');
      const sidFiltering = bool(t, 'SidFilteringEnabled');
      if (direction === 'Outbound' || direction === 'Bidirectional') {
        this.edge(
          out,
          oid,
          target,
          kind,
          { isacl: false, spoofsidhistoryblocked: sidFiltering, transitive, trusttype: trustType },
          'Domain',
          'Domain',
        );
        if (crossForest && !sidFiltering)
          this.edge(out, target, oid, 'SpoofSIDHistory', { isacl: false, trusttype: trustType }, 'Domain', 'Domain');
      }
      if (direction === 'Inbound' || direction === 'Bidirectional') {
        this.edge(out, target, oid, kind, { isacl: false, transitive, trusttype: trustType }, 'Domain', 'Domain');
        if (crossForest && bool(t, 'TGTDelegationEnabled'))
          this.edge(out, target, oid, 'AbuseTGTDelegation', { isacl: false, trusttype: trustType }, 'Domain', 'Domain');
      }
    }
  }

  private toDomain(raw: unknown, oid: string, kind: string, edgeKind: string, out: Converted): void {
    const domain = str(raw, 'DomainSID');
    if (domain) this.edge(out, oid, domain.toUpperCase(), edgeKind, { isacl: false }, kind, 'Domain');
  }

  private enterpriseCA(raw: unknown, oid: string, props: Properties, out: Converted): void {
    for (const t of refs(raw, 'EnabledCertTemplates'))
      this.edge(out, t.id, oid, 'PublishedTo', { isacl: false }, 'CertTemplate', 'EnterpriseCA');
    const host = str(raw, 'HostingComputer');
    if (host) this.edge(out, host.toUpperCase(), oid, 'HostsCAService', { isacl: false }, 'Computer', 'EnterpriseCA');
    const registry = obj(raw, 'CARegistryData');
    const security = obj(registry, 'CASecurity');
    if (security && field(security, 'Collected') !== false) {
      this.aces({ Aces: list(security, 'Data') }, oid, 'EnterpriseCA', props, out);
    }
  }

  private session(raw: unknown, out: Converted): void {
    const computer = str(raw, 'ComputerSID')?.toUpperCase();
    const user = str(raw, 'UserSID')?.toUpperCase();
    if (!computer || !user) return;
    const logon = field(raw, 'LogonType');
    this.edge(out, computer, user, 'HasSession', logon === undefined || logon === null ? {} : { logontype: logon }, 'Computer', 'User');
  }
}

export type { Ref };
