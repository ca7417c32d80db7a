import type { AnalysisGraph, ANode, Changes } from '../view.js';

/** Well-known SIDs that are always groups, even when only seen as ACE principals (FixWellKnownNodeTypes). */
const GROUP_SUFFIXES = ['-526', '-527', 'S-1-5-9', '-512', '-516', '-518', '-519', '-544', '-551'];

export function fixWellKnownNodeTypes(g: AnalysisGraph, c: Changes): void {
  for (const n of g.nodes.values()) {
    if (n.kinds.has('Group') || n.kinds.has('ADLocalGroup')) continue;
    if (GROUP_SUFFIXES.some((s) => n.objectid.endsWith(s))) c.node(n, ['Group'], {});
  }
}

/**
 * Nodes known only by SID get a name from their domain: `(DOMAIN) <sid>` and its domainsid, when the SID without
 * its last part is a domain's (RunDomainAssociations). Domains without a domainsid get their own object id.
 */
export function domainAssociations(g: AnalysisGraph, c: Changes): void {
  const domains = new Map<string, ANode>();
  for (const d of g.ofKind('Domain')) {
    domains.set(d.objectid, d);
    if (!d.props.domainsid) c.node(d, [], { domainsid: d.objectid });
  }
  for (const n of g.nodes.values()) {
    if (n.props.name !== undefined) continue;
    const cut = n.objectid.lastIndexOf('-');
    const domain = cut > 0 ? domains.get(n.objectid.slice(0, cut)) : undefined;
    if (!domain) continue;
    c.node(n, [], { name: `(${domain.props.name ?? domain.objectid}) ${n.objectid}`, domainsid: domain.objectid });
  }
}

/** Identities every member of a domain can claim (Everyone -[ClaimSpecialIdentity]-> each). */
const SPECIAL_IDENTITIES: [string, string][] = [
  ['S-1-5-2', 'NETWORK'],
  ['S-1-5-15', 'THIS ORGANIZATION'],
  ['S-1-5-65-1', 'THIS ORGANIZATION CERTIFICATE'],
  ['S-1-18-1', 'AUTHENTICATION AUTHORITY ASSERTED IDENTITY'],
  ['S-1-18-4', 'KEY TRUST'],
  ['S-1-18-5', 'MFA KEY PROPERTY'],
  ['S-1-5-64-10', 'NTLM AUTHENTICATION'],
  ['S-1-5-64-14', 'SCHANNEL AUTHENTICATION'],
];

/**
 * For every collected domain, links the implicit memberships Windows applies (LinkWellKnownNodes): Domain Users
 * and Domain Computers are Authenticated Users, who with Guest are Everyone; Everyone can claim the special
 * identities. Missing well-known groups are created with a name in the domain.
 */
export function linkWellKnownNodes(g: AnalysisGraph, c: Changes): void {
  for (const d of g.ofKind('Domain')) {
    if (d.props.collected !== true) continue;
    const name = String(d.props.name ?? d.objectid).toUpperCase();
    const sid = String(d.props.domainsid ?? d.objectid);
    const getOrCreate = (objectid: string, label: string) =>
      g.byObjectId.get(objectid) ??
      (() => {
        const props = { objectid, name: `${label}@${name}`, domain: name, domainsid: sid, lastseen: c.now };
        const n = g.createNode(objectid, ['Base', 'Group'], {});
        c.node(n, ['Base', 'Group'], props);
        return n;
      })();
    const everyone = getOrCreate(`${name}-S-1-1-0`, 'EVERYONE');
    const authUsers = getOrCreate(`${name}-S-1-5-11`, 'AUTHENTICATED USERS');
    for (const rid of ['-513', '-515']) {
      const group = g.byObjectId.get(sid + rid);
      if (group) c.edge(group, authUsers, 'MemberOf');
    }
    const guest = g.byObjectId.get(`${sid}-501`);
    if (guest) c.edge(guest, everyone, 'MemberOf');
    c.edge(authUsers, everyone, 'MemberOf');
    for (const [suffix, label] of SPECIAL_IDENTITIES) c.edge(everyone, getOrCreate(`${name}-${suffix}`, label), 'ClaimSpecialIdentity');
  }
}
