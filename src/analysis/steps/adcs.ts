import type { AnalysisGraph, ANode, Changes } from '../view.js';

const ENROLL_RIGHTS = ['Enroll', 'GenericAll', 'AllExtendedRights'];
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x).toUpperCase()) : []);
const thumb = (n: ANode) => (typeof n.props.certthumbprint === 'string' ? n.props.certthumbprint.toUpperCase() : undefined);

/**
 * The ADCS edges derivable from collected certificate data (PostADCS): TrustedForNTAuth, EnterpriseCAFor,
 * IssuedSignedBy, then per domain GoldenCert and ESC1.
 */
export function adcs(g: AnalysisGraph, c: Changes): void {
  const cas = g.ofKind('EnterpriseCA');
  if (!cas.length) return;
  const stores = g.ofKind('NTAuthStore');
  const roots = [...g.ofKind('RootCA'), ...g.ofKind('AIACA')];

  for (const ca of cas) {
    const t = thumb(ca);
    for (const store of stores) if (t && list(store.props.certthumbprints).includes(t)) c.edge(ca, store, 'TrustedForNTAuth');
    const chain = list(ca.props.certchain);
    for (const root of roots) {
      const rt = thumb(root);
      if (rt && chain.slice(1).includes(rt)) c.edge(ca, root, 'EnterpriseCAFor');
    }
  }
  // IssuedSignedBy: a certificate's issuer is the next thumbprint in its chain.
  for (const n of [...cas, ...roots]) {
    const issuer = list(n.props.certchain)[1];
    const signer = issuer && roots.find((r) => thumb(r) === issuer && r.id !== n.id);
    if (signer) c.edge(n, signer, 'IssuedSignedBy');
  }

  for (const domain of g.ofKind('Domain')) {
    const domainStores = new Set(g.in(domain.id, 'NTAuthStoreFor').map((e) => e.startId));
    const domainRoots = new Set(g.in(domain.id, 'RootCAFor').map((e) => e.startId));
    for (const ca of cas) {
      const trusted = g.out(ca.id, 'TrustedForNTAuth').some((e) => domainStores.has(e.endId));
      const chained = g.out(ca.id, 'EnterpriseCAFor').some((e) => domainRoots.has(e.endId));
      if (!trusted || !chained) continue;
      for (const host of g.in(ca.id, 'HostsCAService')) c.edge(g.node(host.startId), domain, 'GoldenCert');
      esc1(g, c, ca, domain);
    }
  }
}

/**
 * ESC1: a principal who may enroll on both the CA and a template published to it, where the template lets the
 * enrollee supply the subject, allows client authentication, needs no manager approval and no authorised
 * signatures (schema 1 or zero signatures).
 */
function esc1(g: AnalysisGraph, c: Changes, ca: ANode, domain: ANode): void {
  const enrollers = (target: ANode) => {
    const direct = ENROLL_RIGHTS.flatMap((k) => g.in(target.id, k).map((e) => e.startId));
    const all = new Set(direct);
    for (const id of direct) for (const m of g.membersOf(id)) all.add(m);
    return { direct: new Set(direct), all };
  };
  const caEnroll = enrollers(ca);
  for (const p of g.in(ca.id, 'PublishedTo')) {
    const t = g.node(p.startId);
    const vulnerable =
      t.props.enrolleesuppliessubject === true &&
      t.props.authenticationenabled === true &&
      t.props.requiresmanagerapproval !== true &&
      (Number(t.props.schemaversion) === 1 || Number(t.props.authorizedsignatures ?? 0) === 0);
    if (!vulnerable) continue;
    const tEnroll = enrollers(t);
    // The smallest set: principals with both rights whose groups do not already have both.
    for (const id of tEnroll.all) {
      if (!caEnroll.all.has(id)) continue;
      const covered = [...g.groupsOf(id)].some((x) => tEnroll.all.has(x) && caEnroll.all.has(x));
      if (!covered) c.edge(g.node(id), domain, 'ADCSESC1');
    }
  }
}
