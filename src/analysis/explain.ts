import type { GraphEdge } from '../graph/model.js';
import type { AnalysisGraph, ANode } from './view.js';

/** Derived kinds whose sources analysis records (what BloodHound's edge-composition and relay-targets answer). */
export const EXPLAINED_KINDS = new Set(['DCSync', 'SyncLAPSPassword', 'GoldenCert', 'ADCSESC1', 'CoerceAndRelayNTLMToSMB']);

const CHAIN_KINDS = ['IssuedSignedBy', 'EnterpriseCAFor', 'RootCAFor', 'TrustedForNTAuth', 'NTAuthStoreFor'];
const TEMPLATE_ENROLL = ['Enroll', 'GenericAll', 'AllExtendedRights'];
/** Hops of a CA's chain to its domain (CA → AIA/root CAs → domain, or CA → NTAuth store → domain). */
const MAX_CHAIN = 6;
/** Group members of a relaying computer group listed with it (the rest are implied by the group). */
const MAX_MEMBERS = 50;

/**
 * For each derived edge of an explained kind, the edges of the view it was derived from, found the way BloodHound's
 * composition queries find them (its edge-composition answers these paths on request; we keep them with the edge):
 * - DCSync: the principal's GetChanges and GetChangesAll on the domain, directly or through the groups it is in;
 *   SyncLAPSPassword the same with GetChangesInFilteredSet, on the computer's domain;
 * - GoldenCert: HostsCAService to the CA and the CA's chain to the domain (IssuedSignedBy / EnterpriseCAFor /
 *   RootCAFor and TrustedForNTAuth / NTAuthStoreFor);
 * - ADCSESC1: enrolment on an ESC1 template published to such a CA and on the CA, with the memberships that give it;
 * - CoerceAndRelayNTLMToSMB: the AdminTo edges of computers (or their groups) on the target.
 */
export function explain(g: AnalysisGraph, edges: readonly GraphEdge[]): { edge: GraphEdge; parts: GraphEdge[] }[] {
  const out: { edge: GraphEdge; parts: GraphEdge[] }[] = [];
  for (const e of edges) {
    if (!EXPLAINED_KINDS.has(e.kind)) continue;
    const start = g.node(e.startId);
    const end = g.node(e.endId);
    let parts: GraphEdge[] = [];
    if (e.kind === 'DCSync') parts = rights(g, start, end, ['GetChanges', 'GetChangesAll']);
    else if (e.kind === 'SyncLAPSPassword') {
      const d = g.byObjectId.get(String(end.props.domainsid ?? ''));
      if (d) parts = rights(g, start, d, ['GetChanges', 'GetChangesInFilteredSet']);
    } else if (e.kind === 'GoldenCert') {
      for (const h of g.out(start.id, 'HostsCAService')) {
        const chain = chainTo(g, h.endId, end.id);
        if (chain.length) parts.push(h, ...chain);
      }
    } else if (e.kind === 'ADCSESC1') parts = esc1(g, start, end);
    else parts = relaySmb(g, end);
    if (parts.length) out.push({ edge: e, parts: [...new Set(parts)] });
  }
  return out;
}

/** `p` itself and every group it is in, each with the MemberOf path that leads there. */
function reach(g: AnalysisGraph, p: ANode): Map<number, GraphEdge[]> {
  const paths = new Map<number, GraphEdge[]>([[p.id, []]]);
  const queue = [p.id];
  while (queue.length) {
    const id = queue.shift()!;
    for (const m of g.out(id, 'MemberOf')) {
      if (paths.has(m.endId)) continue;
      paths.set(m.endId, [...paths.get(id)!, m]);
      queue.push(m.endId);
    }
  }
  return paths;
}

/** Edges of every kind in `kinds` from `p` (or a group of it) to `target`, with the memberships; none unless all are held. */
function rights(g: AnalysisGraph, p: ANode, target: ANode, kinds: string[]): GraphEdge[] {
  const paths = reach(g, p);
  const parts: GraphEdge[] = [];
  for (const kind of kinds) {
    const held = g.in(target.id, kind).filter((x) => paths.has(x.startId));
    if (!held.length) return [];
    for (const x of held) parts.push(...paths.get(x.startId)!, x);
  }
  return parts;
}

/** The edges on every chain from a CA to the domain, at most MAX_CHAIN hops. */
function chainTo(g: AnalysisGraph, from: number, domain: number): GraphEdge[] {
  const found = new Set<GraphEdge>();
  const walk = (id: number, trail: GraphEdge[], seen: Set<number>) => {
    if (id === domain) return void trail.forEach((x) => found.add(x));
    if (trail.length >= MAX_CHAIN) return;
    for (const kind of CHAIN_KINDS)
      for (const x of g.out(id, kind)) {
        if (seen.has(x.endId)) continue;
        seen.add(x.endId);
        walk(x.endId, [...trail, x], seen);
        seen.delete(x.endId);
      }
  };
  walk(from, [], new Set([from]));
  return [...found];
}

function esc1(g: AnalysisGraph, p: ANode, domain: ANode): GraphEdge[] {
  const paths = reach(g, p);
  const via = (target: number, kinds: string[]) => kinds.flatMap((k) => g.in(target, k)).filter((x) => paths.has(x.startId));
  const parts: GraphEdge[] = [];
  for (const ca of g.ofKind('EnterpriseCA')) {
    const chain = chainTo(g, ca.id, domain.id);
    const onCa = via(ca.id, ['Enroll']);
    if (!chain.length || !onCa.length) continue;
    for (const pub of g.in(ca.id, 'PublishedTo')) {
      const t = g.node(pub.startId);
      if (t.props.enrolleesuppliessubject !== true || t.props.authenticationenabled !== true) continue;
      const onTemplate = via(t.id, TEMPLATE_ENROLL);
      if (!onTemplate.length) continue;
      for (const x of [...onTemplate, ...onCa]) parts.push(...paths.get(x.startId)!, x);
      parts.push(pub, ...chain);
    }
  }
  return parts;
}

function relaySmb(g: AnalysisGraph, target: ANode): GraphEdge[] {
  const parts: GraphEdge[] = [];
  for (const a of g.in(target.id, 'AdminTo')) {
    const admin = g.node(a.startId);
    if (admin.kinds.has('Computer')) parts.push(a);
    else if (admin.kinds.has('Group')) {
      const computers = [...g.membersOf(admin.id)].map((id) => g.node(id)).filter((n) => n.kinds.has('Computer') && n.id !== target.id);
      if (!computers.length) continue;
      parts.push(a);
      for (const c of computers.slice(0, MAX_MEMBERS)) parts.push(...(reach(g, c).get(admin.id) ?? []));
    }
  }
  return parts;
}
