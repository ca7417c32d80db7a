import type { AnalysisGraph, ANode, Changes } from '../view.js';

const ADMINSDHOLDER_DN_PREFIX = 'CN=ADMINSDHOLDER,CN=SYSTEM,';
const collectedDomains = (g: AnalysisGraph) =>
  g.ofKind('Domain').filter((d) => d.props.collected === true && typeof d.props.domainsid === 'string');

/**
 * ProtectAdminGroups (PostProtectAdminGroups): in every collected domain, the AdminSDHolder container to each
 * user, computer and group of the domain that SDProp protects (adminsdholderprotected). The first AdminSDHolder
 * found is used: there is one per domain.
 */
export function protectAdminGroups(g: AnalysisGraph, c: Changes): void {
  for (const d of collectedDomains(g)) {
    const sid = d.props.domainsid;
    const holder = g.ofKind('Container').find(
      (n) =>
        n.props.domainsid === sid &&
        String(n.props.distinguishedname ?? '')
          .toUpperCase()
          .startsWith(ADMINSDHOLDER_DN_PREFIX),
    );
    if (!holder) continue;
    for (const n of g.nodes.values()) {
      if (n.props.adminsdholderprotected !== true || n.props.domainsid !== sid) continue;
      if (n.kinds.has('User') || n.kinds.has('Computer') || n.kinds.has('Group')) c.edge(holder, n, 'ProtectAdminGroups');
    }
  }
}

/**
 * HasTrustKeys (PostHasTrustKeys): a collected domain holds the keys of the trust account it has in every domain
 * it trusts directly (outbound SameForestTrust / CrossForestTrust): the user `<NETBIOS>$` of the trusting domain.
 */
export function hasTrustKeys(g: AnalysisGraph, c: Changes): void {
  const bySamAndSid = new Map<string, ANode>();
  for (const u of g.ofKind('User')) {
    if (typeof u.props.samaccountname === 'string' && typeof u.props.domainsid === 'string') {
      const key = `${u.props.domainsid}|${u.props.samaccountname.toUpperCase()}`;
      if (!bySamAndSid.has(key)) bySamAndSid.set(key, u);
    }
  }
  for (const d of collectedDomains(g)) {
    if (typeof d.props.netbios !== 'string' || !d.props.netbios) continue;
    for (const kind of ['SameForestTrust', 'CrossForestTrust']) {
      for (const e of g.out(d.id, kind)) {
        const trusting = g.node(e.endId);
        if (!trusting.kinds.has('Domain') || typeof trusting.props.domainsid !== 'string') continue;
        const account = bySamAndSid.get(`${trusting.props.domainsid}|${d.props.netbios.toUpperCase()}$`);
        if (account) c.edge(d, account, 'HasTrustKeys');
      }
    }
  }
}
