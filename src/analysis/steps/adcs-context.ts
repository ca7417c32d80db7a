import type { AnalysisGraph, ANode } from '../view.js';

export const EKU_ANY_PURPOSE = '2.5.29.37.0';
export const EKU_CERT_REQUEST_AGENT = '1.3.6.1.4.1.311.20.2.1';
const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
/** CertificateMappingMethods bit for UPN mapping (Schannel); -1 means the registry value does not exist. */
const UPN_MAPPING = 0x4;

export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);
export const upper = (v: unknown): string[] => strings(v).map((x) => x.toUpperCase());
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : undefined;
export const thumbprint = (n: ANode): string | undefined =>
  typeof n.props.certthumbprint === 'string' && n.props.certthumbprint ? n.props.certthumbprint.toUpperCase() : undefined;

/** Template facts shared by the ESC rules. A missing property counts as "not satisfied" (BloodHound errors out). */
export const tpl = {
  noApproval: (t: ANode) => t.props.requiresmanagerapproval === false,
  authEnabled: (t: ANode) => t.props.authenticationenabled === true,
  /** schema 1, or no authorised signatures required */
  noSignatures: (t: ANode) => {
    const v = num(t.props.schemaversion);
    const s = num(t.props.authorizedsignatures);
    return v === 1 || (v !== undefined && v > 1 && s === 0);
  },
  /** Schannel authentication: the collected flag, else client-auth / any-purpose / no EKUs. */
  schannelAuth: (t: ANode) => {
    if (typeof t.props.schannelauthenticationenabled === 'boolean') return t.props.schannelauthenticationenabled;
    if (!Array.isArray(t.props.effectiveekus)) return false;
    const ekus = strings(t.props.effectiveekus);
    return ekus.length === 0 || ekus.includes(EKU_CLIENT_AUTH) || ekus.includes(EKU_ANY_PURPOSE);
  },
  /** Users can be victims unless the template requires a DNS name in the subject alternative name. */
  validForUsers: (t: ANode) => t.props.subjectaltrequiredns === false && t.props.subjectaltrequiredomaindns === false,
  schemaVersion: (t: ANode) => num(t.props.schemaversion),
  authorizedSignatures: (t: ANode) => num(t.props.authorizedsignatures),
};

/**
 * What every ADCS rule needs, computed once per run (BloodHound's ADCSCache): published templates per CA,
 * enrollers of CAs and templates, template controllers, which domains each enterprise CA chains to, and which
 * forests have domain controllers with weak certificate binding or UPN mapping.
 */
export class AdcsContext {
  readonly cas: ANode[];
  readonly templates: ANode[];
  readonly domains: ANode[];
  private readonly chained = new Map<number, ANode[]>();

  constructor(readonly g: AnalysisGraph) {
    this.cas = g.ofKind('EnterpriseCA');
    this.templates = g.ofKind('CertTemplate');
    this.domains = g.ofKind('Domain');
    for (const ca of this.cas)
      this.chained.set(
        ca.id,
        this.domains.filter((d) => this.trusted(ca, d) && this.chainsToRoot(ca, d)),
      );
  }

  private holders(target: ANode, kinds: string[]): ANode[] {
    const seen = new Map<number, ANode>();
    for (const k of kinds) for (const e of this.g.in(target.id, k)) seen.set(e.startId, this.g.node(e.startId));
    return [...seen.values()];
  }

  published(ca: ANode): ANode[] {
    return this.g
      .in(ca.id, 'PublishedTo')
      .map((e) => this.g.node(e.startId))
      .filter((t) => t.kinds.has('CertTemplate'));
  }

  /** CAs a template is published to. */
  casOf(template: ANode): ANode[] {
    return this.g
      .out(template.id, 'PublishedTo')
      .map((e) => this.g.node(e.endId))
      .filter((n) => n.kinds.has('EnterpriseCA'));
  }

  caEnrollers(ca: ANode): ANode[] {
    return this.holders(ca, ['Enroll']);
  }

  templateEnrollers(t: ANode): ANode[] {
    return this.holders(t, ['Enroll', 'GenericAll', 'AllExtendedRights']);
  }

  templateControllers(t: ANode): ANode[] {
    return this.holders(t, ['GenericAll', 'Owns', 'WriteOwner', 'WriteDacl']);
  }

  rightHolders(t: ANode, kinds: string[]): ANode[] {
    return this.holders(t, kinds);
  }

  /** The CA's certificate is in an NTAuth store of the domain. */
  private trusted(ca: ANode, d: ANode): boolean {
    return this.g.out(ca.id, 'TrustedForNTAuth').some((e) => this.g.out(e.endId, 'NTAuthStoreFor').some((f) => f.endId === d.id));
  }

  /** (ca)-[:IssuedSignedBy|EnterpriseCAFor*1..]->(:RootCA)-[:RootCAFor]->(d), through enterprise and AIA CAs. */
  private chainsToRoot(ca: ANode, d: ANode): boolean {
    const seen = new Set([ca.id]);
    const queue = [ca.id];
    while (queue.length) {
      const id = queue.shift()!;
      for (const kind of ['IssuedSignedBy', 'EnterpriseCAFor']) {
        for (const e of this.g.out(id, kind)) {
          const next = this.g.node(e.endId);
          if (next.kinds.has('RootCA') && this.g.out(next.id, 'RootCAFor').some((f) => f.endId === d.id)) return true;
          if (!seen.has(next.id) && (next.kinds.has('EnterpriseCA') || next.kinds.has('AIACA'))) {
            seen.add(next.id);
            queue.push(next.id);
          }
        }
      }
    }
    return false;
  }

  /** Domains whose NTAuth store trusts the CA and whose root CA it chains to. */
  chainedDomains(ca: ANode): ANode[] {
    return this.chained.get(ca.id) ?? [];
  }

  /** Domains the ESC edges of a CA point at: chained domains, when some computer hosts the CA service. */
  targetDomains(ca: ANode): ANode[] {
    return this.g.in(ca.id, 'HostsCAService').length ? this.chainedDomains(ca) : [];
  }

  /** Template -PublishedTo-> a CA that chains properly to the domain. */
  linksToDomain(t: ANode, d: ANode): boolean {
    return this.casOf(t).some((ca) => this.chainedDomains(ca).some((x) => x.id === d.id));
  }

  /** Domain controllers of the domain and of domains trusting into it within the forest (SameForestTrust*0..). */
  private forestDCs(d: ANode): ANode[] {
    const domains = new Set([d.id]);
    const queue = [d.id];
    while (queue.length) {
      for (const e of this.g.in(queue.shift()!, 'SameForestTrust')) {
        if (!domains.has(e.startId) && this.g.node(e.startId).kinds.has('Domain')) {
          domains.add(e.startId);
          queue.push(e.startId);
        }
      }
    }
    return [...domains].flatMap((id) => this.g.in(id, 'DCFor').map((e) => this.g.node(e.startId))).filter((n) => n.kinds.has('Computer'));
  }

  /** A DC in the forest with StrongCertificateBindingEnforcement 0 or 1. */
  weakCertBinding(d: ANode): boolean {
    return this.forestDCs(d).some((dc) => [0, 1].includes(num(dc.props.strongcertificatebindingenforcementraw) ?? -1));
  }

  /** A DC in the forest whose Schannel certificate mapping methods include UPN mapping. */
  upnCertMapping(d: ANode): boolean {
    return this.forestDCs(d).some((dc) => {
      const v = num(dc.props.certificatemappingmethodsraw);
      return v !== undefined && v !== -1 && (v & UPN_MAPPING) === UPN_MAPPING;
    });
  }

  /**
   * Drops users from a result unless the template is known not to require a DNS name (filterUserDNSResults): every
   * User node, gMSAs and MSAs too, as BloodHound drops them.
   */
  filterUsers(nodes: Iterable<ANode>, t: ANode): ANode[] {
    const keepUsers = tpl.validForUsers(t);
    return [...nodes].filter((n) => keepUsers || !n.kinds.has('User'));
  }
}
