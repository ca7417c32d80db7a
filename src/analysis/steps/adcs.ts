import type { AnalysisGraph, ANode, Changes } from '../view.js';
import { AdcsContext, EKU_ANY_PURPOSE, EKU_CERT_REQUEST_AGENT, strings, thumbprint, tpl, upper } from './adcs-context.js';
import { esc1, esc13, esc3, esc4, esc6 } from './adcs-esc.js';
import { esc9, esc10 } from './adcs-esc9-10.js';

/**
 * ADCS post-processing (PostADCS). First the edges that depend only on collected certificate data —
 * TrustedForNTAuth, IssuedSignedBy, EnterpriseCAFor, ExtendedByPolicy — then EnrollOnBehalfOf, then per enterprise
 * CA the domain-escalation edges: GoldenCert and ESC1, 3, 4, 6a/b, 9a/b, 10a/b, 13.
 */
export function adcs(g: AnalysisGraph, c: Changes): void {
  const cas = g.ofKind('EnterpriseCA');
  const roots = g.ofKind('RootCA');
  const aias = g.ofKind('AIACA');
  const byThumb = new Map<string, ANode[]>();
  for (const n of [...cas, ...roots, ...aias]) {
    const t = thumbprint(n);
    if (t) byThumb.set(t, [...(byThumb.get(t) ?? []), n]);
  }
  const withThumb = (t: string, kinds: string[]) => (byThumb.get(t.toUpperCase()) ?? []).filter((n) => kinds.some((k) => n.kinds.has(k)));

  // TrustedForNTAuth: the store lists the CA's certificate.
  for (const store of g.ofKind('NTAuthStore')) {
    for (const t of upper(store.props.certthumbprints))
      for (const ca of withThumb(t, ['EnterpriseCA'])) c.edge(ca, store, 'TrustedForNTAuth');
  }
  // IssuedSignedBy: a certificate's issuer is the second entry of its chain.
  for (const n of [...cas, ...roots, ...aias]) {
    const issuer = upper(n.props.certchain)[1];
    if (issuer) for (const s of withThumb(issuer, ['EnterpriseCA', 'RootCA', 'AIACA'])) c.edge(n, s, 'IssuedSignedBy');
  }
  // EnterpriseCAFor: the enterprise CA's own certificate is also published as a root or AIA CA (a self-signed
  // enterprise CA has a chain of one, so this is a thumbprint match, not a chain look-up).
  for (const ca of cas) {
    const t = thumbprint(ca);
    if (t) for (const r of withThumb(t, ['RootCA', 'AIACA'])) c.edge(ca, r, 'EnterpriseCAFor');
  }
  extendedByPolicy(g, c);

  const ctx = new AdcsContext(g);
  enrollOnBehalfOf(ctx, c);
  for (const ca of cas) {
    const domains = ctx.targetDomains(ca);
    if (!domains.length) continue;
    for (const host of g.in(ca.id, 'HostsCAService')) for (const d of domains) c.edge(g.node(host.startId), d, 'GoldenCert');
    esc1(ctx, c, ca, domains);
    esc3(ctx, c, ca, domains);
    esc4(ctx, c, ca, domains);
    esc6(ctx, c, ca, domains);
    esc9(ctx, c, ca, domains);
    esc10(ctx, c, ca, domains);
    esc13(ctx, c, ca);
  }
}

/** ExtendedByPolicy: a template's certificate policies name an issuance policy of the same domain. */
function extendedByPolicy(g: AnalysisGraph, c: Changes): void {
  const byOid = new Map<string, ANode[]>();
  for (const p of g.ofKind('IssuancePolicy')) {
    const oid = p.props.certtemplateoid;
    if (typeof oid === 'string') byOid.set(oid, [...(byOid.get(oid) ?? []), p]);
  }
  for (const t of g.ofKind('CertTemplate')) {
    const sid = t.props.domainsid;
    if (typeof sid !== 'string' || !sid) continue;
    for (const oid of strings(t.props.certificatepolicy))
      for (const p of byOid.get(oid) ?? []) if (p.props.domainsid === sid) c.edge(t, p, 'ExtendedByPolicy');
  }
}

/**
 * EnrollOnBehalfOf from an enrollment-agent template to the templates it can request for others, for templates
 * published to a CA chained to a domain (EnrollOnBehalfOfVersionOne / VersionTwo). Schema 1 targets accept any
 * agent template (Certificate Request Agent, Any Purpose or no EKUs); schema 2+ targets must require one
 * authorised signature with the Certificate Request Agent application policy, and the agent must carry exactly
 * that EKU (Any Purpose is refused).
 */
function enrollOnBehalfOf(ctx: AdcsContext, c: Changes): void {
  const v1 = ctx.templates.filter((t) => tpl.schemaVersion(t) === 1);
  const v2 = ctx.templates.filter((t) => (tpl.schemaVersion(t) ?? 0) >= 2);
  for (const d of ctx.domains) {
    for (const ca of ctx.cas) {
      if (!ctx.chainedDomains(ca).some((x) => x.id === d.id)) continue;
      for (const agent of ctx.published(ca)) {
        if (!Array.isArray(agent.props.effectiveekus)) continue;
        const ekus = strings(agent.props.effectiveekus);
        if (ekus.length === 0 || ekus.includes(EKU_CERT_REQUEST_AGENT) || ekus.includes(EKU_ANY_PURPOSE)) {
          for (const target of v1) if (ctx.linksToDomain(target, d)) c.edge(agent, target, 'EnrollOnBehalfOf');
        }
        if (ekus.includes(EKU_ANY_PURPOSE) || !ekus.includes(EKU_CERT_REQUEST_AGENT)) continue;
        for (const target of v2) {
          if (target.id === agent.id || (tpl.authorizedSignatures(target) ?? 0) < 1) continue;
          if (!strings(target.props.applicationpolicies).includes(EKU_CERT_REQUEST_AGENT)) continue;
          if (ctx.linksToDomain(target, d)) c.edge(agent, target, 'EnrollOnBehalfOf');
        }
      }
    }
  }
}
