import type { AnalysisGraph, ANode, Changes } from '../view.js';
import { AdcsContext, tpl } from './adcs-context.js';
import { victims } from './adcs-esc9-10.js';

/** Domain functional levels before 2016: Protected Users does not stop computers relaying there. */
const VULNERABLE_FUNCTIONAL_LEVELS = ['2000 Mixed/Native', '2003 Interim', '2003', '2008', '2008 R2', '2012'];

interface DomainNtlm {
  authUsers: ANode;
  protectedUsers: Set<number>;
  vulnerableLevel: boolean;
  /** DCs of the domain accepting unsigned LDAP / LDAPS without channel binding */
  ldap: number[];
  ldaps: number[];
}

/**
 * Coerce-and-relay NTLM (PostNTLM): Authenticated Users of a domain can coerce a computer that may send NTLM
 * (restrictoutboundntlm false, not a protected user on a modern domain) and relay it
 *  - to SMB on a computer without SMB signing where that computer (or a group of it) is admin: …ToSMB to the target;
 *  - to LDAP / LDAPS of a DC without signing / channel binding, when the WebClient runs on it: …ToLDAP(S) to it;
 *  - to a CA's web enrollment endpoint, when it may enroll on an authentication template there: …ToADCS to it.
 */
export function coerceAndRelayNtlm(g: AnalysisGraph, c: Changes): void {
  const domains = domainFacts(g);
  const unprotected = new Set<number>();
  for (const computer of g.ofKind('Computer')) {
    const d = domains.get(String(computer.props.domainsid ?? ''));
    if (!d || computer.props.restrictoutboundntlm !== false) continue; // missing: treated as protected
    if (d.protectedUsers.has(computer.id) && !d.vulnerableLevel) continue;
    unprotected.add(computer.id);
  }

  for (const computer of g.ofKind('Computer')) {
    const d = domains.get(String(computer.props.domainsid ?? ''));
    if (!d) continue;
    if (computer.props.smbsigning === false) {
      const admins = new Set<number>();
      for (const e of g.in(computer.id, 'AdminTo')) {
        admins.add(e.startId);
        if (g.node(e.startId).kinds.has('Group')) for (const m of g.membersOf(e.startId)) admins.add(m);
      }
      admins.delete(computer.id);
      if ([...admins].some((id) => unprotected.has(id))) c.edge(d.authUsers, computer, 'CoerceAndRelayNTLMToSMB');
    }
    if (!unprotected.has(computer.id) || computer.props.webclientrunning !== true) continue;
    const relayable = (dcs: number[]) => dcs.length > 1 || (dcs.length === 1 && dcs[0] !== computer.id);
    if (relayable(d.ldap)) c.edge(d.authUsers, computer, 'CoerceAndRelayNTLMToLDAP');
    if (relayable(d.ldaps)) c.edge(d.authUsers, computer, 'CoerceAndRelayNTLMToLDAPS');
  }

  relayToAdcs(g, c, domains, unprotected);
}

function relayToAdcs(g: AnalysisGraph, c: Changes, domains: Map<string, DomainNtlm>, unprotected: Set<number>): void {
  const ctx = new AdcsContext(g);
  for (const ca of ctx.cas) {
    if (ca.props.hasvulnerableendpoint !== true) continue;
    const targets = ctx.targetDomains(ca);
    if (!targets.length) continue;
    for (const t of ctx.published(ca)) {
      const v = tpl.schemaVersion(t);
      const valid = tpl.noApproval(t) && tpl.authEnabled(t) && v !== undefined && (v <= 1 || tpl.authorizedSignatures(t) === 0);
      if (!valid || !ctx.templateEnrollers(t).length) continue;
      const relayable = victims(ctx, t, ca).filter((n) => unprotected.has(n.id));
      for (const d of targets) {
        const authUsers = domains.get(String(d.props.domainsid ?? d.objectid))?.authUsers;
        if (authUsers) for (const victim of relayable) c.edge(authUsers, victim, 'CoerceAndRelayNTLMToADCS');
      }
    }
  }
}

/** Per domain SID: its Authenticated Users group, Protected Users members, functional level and relayable DCs. */
function domainFacts(g: AnalysisGraph): Map<string, DomainNtlm> {
  const authUsers = new Map<string, ANode>();
  const protectedUsers = new Map<string, Set<number>>();
  for (const grp of g.ofKind('Group')) {
    const sid = grp.props.domainsid;
    if (typeof sid !== 'string') continue;
    if (grp.objectid.endsWith('-S-1-5-11')) authUsers.set(sid, grp);
    if (grp.objectid.endsWith('-525')) protectedUsers.set(sid, g.membersOf(grp.id));
  }
  const dcs = g.ofKind('Computer').filter((n) => n.props.isdc === true);
  const out = new Map<string, DomainNtlm>();
  for (const d of g.ofKind('Domain')) {
    const sid = d.props.domainsid;
    const au = typeof sid === 'string' ? authUsers.get(sid) : undefined;
    if (!au || typeof sid !== 'string') continue;
    const own = dcs.filter((dc) => dc.props.domainsid === sid);
    out.set(sid, {
      authUsers: au,
      protectedUsers: protectedUsers.get(sid) ?? new Set(),
      vulnerableLevel: VULNERABLE_FUNCTIONAL_LEVELS.includes(String(d.props.functionallevel ?? '')),
      ldap: own.filter((dc) => dc.props.ldapsigning === false && dc.props.ldapavailable === true).map((dc) => dc.id),
      ldaps: own.filter((dc) => dc.props.ldapsavailable === true && dc.props.ldapsepa === false).map((dc) => dc.id),
    });
  }
  return out;
}
