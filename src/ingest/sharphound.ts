import type { Properties } from '../graph/model.js';
import { bool, field, list, obj, ref, refs, str, type Obj, type Ref } from './fields.js';
import { aceEdges, ownerSid, readAces } from './sharphound-aces.js';
import { enterpriseCAEdges, enterpriseCAProperties } from './sharphound-adcs.js';
import { coerceToTGT, computerProperties, computerRelationships, gpoChanges } from './sharphound-computer.js';
import { EdgePropertyPool, Out, type Converted } from './sharphound-out.js';

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
  sites: 'Site',
  siteservers: 'SiteServer',
  sitesubnets: 'SiteSubnet',
};

export type { Converted };

const SAME_FOREST_TRUSTS = new Set(['ParentChild', 'TreeRoot', 'CrossLink']);
const UPPER_CASED = new Set(['operatingsystem', 'distinguishedname']);
/** Domain properties older collectors wrote as strings; BloodHound converts them and drops what does not parse. */
const DOMAIN_INTS = ['machineaccountquota', 'minpwdlength', 'pwdproperties', 'pwdhistorylength', 'lockoutthreshold'];
const GPO_STATUS: Readonly<Record<string, string>> = {
  '0': 'Enabled',
  '1': 'User Configuration Disabled',
  '2': 'Computer Configuration Disabled',
  '3': 'Disabled',
};

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

function domainProperties(props: Properties): void {
  for (const key of DOMAIN_INTS) {
    const v = props[key];
    if (v === undefined || typeof v === 'number') {
      if (typeof v === 'number') props[key] = Math.trunc(v);
      continue;
    }
    const n = typeof v === 'string' && /^[-+]?\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (Number.isSafeInteger(n)) props[key] = n;
    else delete props[key];
  }
  const smartcard = props.expirepasswordsonsmartcardonlyaccounts;
  if (typeof smartcard === 'string') {
    const s = smartcard.trim().toLowerCase();
    if (['true', '1', 't'].includes(s)) props.expirepasswordsonsmartcardonlyaccounts = true;
    else if (['false', '0', 'f'].includes(s)) props.expirepasswordsonsmartcardonlyaccounts = false;
    else delete props.expirepasswordsonsmartcardonlyaccounts;
  } else if (smartcard !== undefined && typeof smartcard !== 'boolean') delete props.expirepasswordsonsmartcardonlyaccounts;
}

/**
 * Converts one object of a SharpHound file (v5/v6) into graph writes, following BloodHound's converters
 * (cmd/api/src/services/graphify/convertors.go, packages/go/ein/ad.go). `now` stamps lastseen/lastcollected.
 */
export class SharpHoundConverter {
  private readonly pool = new EdgePropertyPool();

  constructor(private readonly now: string) {}

  convert(type: string, raw: unknown): Converted {
    const out = new Out(this.now, this.pool);
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
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('the item is not a JSON object');
    const oid = str(raw, 'ObjectIdentifier')?.toUpperCase();
    if (!oid) throw new Error('an object has no ObjectIdentifier');
    // Added in place, not spread into a new literal: on Node 20's V8 a spread followed by more keys gives each object a
    // hidden class of its own that outlives the young generation (~2 KB promoted per user object; decisions.md).
    const props: Properties = Object.assign(cleanProperties(obj(raw, 'Properties')), {
      objectid: oid,
      lastcollected: this.now,
      lastseen: this.now,
    });
    if (bool(raw, 'IsDeleted')) props.isdeleted = true;
    const aces = readAces(list(raw, 'Aces'));
    const owner = ownerSid(aces);
    if (owner) props.ownersid = owner;
    const hashes = list(raw, 'InheritanceHashes').filter((h) => typeof h === 'string');
    if (hashes.length && (type === 'domains' || type === 'ous' || type === 'containers')) props.inheritancehashes = hashes;
    out.nodes.push({ objectid: oid, kinds: ['Base', kind], properties: props });

    const container = ref(field(raw, 'ContainedBy'));
    if (container) out.edge(container.id, oid, 'Contains', { isacl: false }, container.kind, kind);
    for (const child of refs(raw, 'ChildObjects')) out.edge(oid, child.id, 'Contains', { isacl: false }, kind, child.kind);
    for (const link of list(raw, 'Links')) {
      const gpo = str(link, 'GUID');
      if (gpo) out.edge(gpo.toUpperCase(), oid, 'GPLink', { enforced: bool(link, 'IsEnforced'), isacl: false }, 'GPO', kind);
    }
    for (const h of refs(raw, 'HasSIDHistory')) out.edge(oid, h.id, 'HasSIDHistory', { isacl: false }, kind, h.kind);

    switch (type) {
      case 'users':
        this.user(raw, oid, out);
        break;
      case 'groups':
        // Members named by distinguished name ("DN=…") are objects SharpHound could not resolve to an id; BloodHound
        // matches them by distinguishedname later. They are not turned into placeholder nodes here (docs/decisions.md).
        for (const m of refs(raw, 'Members'))
          if (!m.id.startsWith('DN=')) out.edge(m.id, oid, 'MemberOf', { isacl: false, isprimarygroup: false }, m.kind, 'Group');
        break;
      case 'computers':
        computerProperties(raw, props);
        this.computer(raw, oid, props, out);
        break;
      case 'domains':
        domainProperties(props);
        this.trusts(raw, oid, out);
        gpoChanges(out, raw);
        break;
      case 'ous':
        gpoChanges(out, raw);
        break;
      case 'gpos':
        this.gpoStatus(props);
        break;
      case 'rootcas':
        this.toDomain(raw, oid, 'RootCA', 'RootCAFor', out);
        break;
      case 'ntauthstores':
        this.toDomain(raw, oid, 'NTAuthStore', 'NTAuthStoreFor', out);
        break;
      case 'enterprisecas':
        enterpriseCAProperties(raw, props);
        break;
      case 'issuancepolicies': {
        const group = ref(field(raw, 'GroupLink'));
        if (group) {
          out.edge(oid, group.id, 'OIDGroupLink', { isacl: false }, 'IssuancePolicy', group.kind);
          props.grouplinkid = group.id;
        }
        break;
      }
      case 'siteservers': {
        // The computer the server object stands for (its serverReference). SharpHoundCommon's output type spells the
        // field "SeverIs"; the corrected spelling is read too.
        const computer = ref(field(raw, 'SeverIs') ?? field(raw, 'ServerIs'));
        if (computer) out.edge(oid, computer.id, 'ServerIs', { isacl: false }, 'SiteServer', computer.kind);
        break;
      }
    }
    // ACEs last: their handling reads properties set above (doesany…grantownerrights come from the collector).
    aceEdges(out, aces, oid, kind, props);
    if (type === 'enterprisecas') enterpriseCAEdges(out, raw, oid, aces, props);
    return out;
  }

  private user(raw: unknown, oid: string, out: Out): void {
    const primary = str(raw, 'PrimaryGroupSID');
    if (primary) out.edge(oid, primary.toUpperCase(), 'MemberOf', { isacl: false, isprimarygroup: true }, 'User', 'Group');
    for (const t of refs(raw, 'AllowedToDelegate')) out.edge(oid, t.id, 'AllowedToDelegate', { isacl: false }, 'User', t.kind);
    for (const spn of list(raw, 'SPNTargets')) {
      const computer = str(spn, 'ComputerSID');
      const service = str(spn, 'Service');
      const port = field(spn, 'Port');
      if (computer && service)
        out.edge(oid, computer.toUpperCase(), service, { isacl: true, port: typeof port === 'number' ? port : 0 }, 'User', 'Computer');
    }
    coerceToTGT(out, raw, oid, 'User');
  }

  private computer(raw: unknown, oid: string, props: Properties, out: Out): void {
    const primary = str(raw, 'PrimaryGroupSID');
    if (primary) out.edge(oid, primary.toUpperCase(), 'MemberOf', { isacl: false, isprimarygroup: true }, 'Computer', 'Group');
    for (const t of refs(raw, 'AllowedToDelegate')) out.edge(oid, t.id, 'AllowedToDelegate', { isacl: false }, 'Computer', t.kind);
    for (const a of refs(raw, 'AllowedToAct')) out.edge(a.id, oid, 'AllowedToAct', { isacl: false }, a.kind, 'Computer');
    for (const t of refs(raw, 'DumpSMSAPassword')) out.edge(oid, t.id, 'DumpSMSAPassword', { isacl: false }, 'Computer', t.kind);
    const domain = str(raw, 'DomainSID');
    // A DC is DCFor its domain; CoerceToTGT is never drawn from a DC.
    if (bool(raw, 'IsDC') && domain) out.edge(oid, domain.toUpperCase(), 'DCFor', { isacl: false }, 'Computer', 'Domain');
    else coerceToTGT(out, raw, oid, 'Computer');
    computerRelationships(out, raw, oid, props);
  }

  private gpoStatus(props: Properties): void {
    if (!('gpostatus' in props)) return;
    const raw = String(props.gpostatus).trim();
    props.gpostatusraw = raw;
    props.gpostatus = GPO_STATUS[raw] ?? 'GPO Status does not exist';
  }

  /** Trust edges, and the trusted domain's name and SID on its node (it may never be collected itself). */
  private trusts(raw: unknown, oid: string, out: Out): void {
    for (const t of list(raw, 'Trusts')) {
      const target = str(t, 'TargetDomainSid')?.toUpperCase();
      if (!target) continue;
      const name = str(t, 'TargetDomainName');
      out.node(target, ['Base', 'Domain'], { domainsid: target, ...(name ? { name: name.toUpperCase() } : {}) });
      const trustType = str(t, 'TrustType') ?? 'Unknown';
      const kind = SAME_FOREST_TRUSTS.has(trustType) ? 'SameForestTrust' : 'CrossForestTrust';
      const crossForest = kind === 'CrossForestTrust';
      const direction = str(t, 'TrustDirection') ?? '';
      const transitive = bool(t, 'IsTransitive');
      const sidFiltering = bool(t, 'SidFilteringEnabled');
      const attributes = trustAttributes(field(t, 'TrustAttributes'));
      if (direction === 'Inbound' || direction === 'Bidirectional') {
        const p: Properties = { isacl: false, trusttype: trustType, transitive };
        if (attributes !== null) {
          p.trustattributesinbound = attributes;
          p.tgtdelegation = bool(t, 'TGTDelegationEnabled'); // collected together with the attributes
        }
        out.edge(target, oid, kind, p, 'Domain', 'Domain');
        if (crossForest && bool(t, 'TGTDelegationEnabled'))
          out.edge(target, oid, 'AbuseTGTDelegation', { isacl: false, trusttype: trustType }, 'Domain', 'Domain');
      }
      if (direction === 'Outbound' || direction === 'Bidirectional') {
        const p: Properties = { isacl: false, spoofsidhistoryblocked: sidFiltering, trusttype: trustType, transitive };
        if (attributes !== null) p.trustattributesoutbound = attributes;
        out.edge(oid, target, kind, p, 'Domain', 'Domain');
        if (crossForest && !sidFiltering)
          out.edge(target, oid, 'SpoofSIDHistory', { isacl: false, trusttype: trustType }, 'Domain', 'Domain');
      }
    }
  }

  private toDomain(raw: unknown, oid: string, kind: string, edgeKind: string, out: Out): void {
    const domain = str(raw, 'DomainSID');
    if (domain) out.edge(oid, domain.toUpperCase(), edgeKind, { isacl: false }, kind, 'Domain');
  }

  private session(raw: unknown, out: Out): void {
    const computer = str(raw, 'ComputerSID')?.toUpperCase();
    const user = str(raw, 'UserSID')?.toUpperCase();
    if (!computer || !user) return;
    const logon = field(raw, 'LogonType');
    out.edge(computer, user, 'HasSession', logon === undefined || logon === null ? {} : { logontype: logon }, 'Computer', 'User');
  }
}

/** A trust's attributes as an integer, or null when missing or unreadable (BloodHound then omits them). */
function trustAttributes(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^[-+]?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

export type { Ref };
