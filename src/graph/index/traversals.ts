import { ACL_KINDS } from '../kinds.js';
import { gposApplyingTo, type GpoTopology } from '../rules/gpo.js';
import type { GraphIndex } from './graph-index.js';
import { HUB_EDGES, rightCounts } from './right-counts.js';

/** A traversal's answer: the nodes it returns, and the edges (out positions) of the paths that lead to them. */
export interface Found {
  nodes: Set<number>;
  edges: Set<number>;
}

function walk(ix: GraphIndex, start: number, dir: 'out' | 'in', kind: number, visit?: (pos: number, to: number) => void): Set<number> {
  return new Set(reach(ix, [start], dir, kind, visit));
}

/**
 * Every node reachable from any of `starts` (included) over edges of `kind`, in visiting order. Marks seen nodes
 * in the index's stamp table rather than a Set: entity counts walk groups of tens of thousands of members.
 */
function reach(ix: GraphIndex, starts: number[], dir: 'out' | 'in', kind: number, visit?: (pos: number, to: number) => void): number[] {
  const { table, stamp } = ix.marks();
  const seen: number[] = [];
  for (const s of starts) {
    if (table[s] !== stamp) {
      table[s] = stamp;
      seen.push(s);
    }
  }
  const stack = [...seen];
  const side = ix.side(dir);
  while (stack.length) {
    const u = stack.pop()!;
    for (let q = ix.kindStart(side, u, kind), to = ix.kindStart(side, u, kind + 1); q < to; q++) {
      const p = side.edges ? side.edges[q]! : q;
      const v = side.others[q]!;
      visit?.(p, v);
      if (table[v] !== stamp) {
        table[v] = stamp;
        seen.push(v);
        stack.push(v);
      }
    }
  }
  return seen;
}

/** `root` and every group it belongs to, directly or through nested groups. */
export function memberOfClosure(ix: GraphIndex, root: number): Set<number> {
  return walk(ix, root, 'out', ix.edgeKindId('MemberOf'));
}

/** Every principal that belongs to `group` (not the group itself). */
export function membersOf(ix: GraphIndex, group: number): Set<number> {
  const all = walk(ix, group, 'in', ix.edgeKindId('MemberOf'));
  all.delete(group);
  return all;
}

/**
 * (root)-[:MemberOf*0..]->(x)-[:<kinds>]->(target) where target has `targetKind` (when given):
 * BloodHound's outbound "rights through group membership" lists (adminRights, psRemoteRights, controllables…).
 * The edges are those of every such path; `closure` (root's memberOfClosure) may be passed when already known.
 */
export function throughMembership(
  ix: GraphIndex,
  root: number,
  kinds: readonly string[],
  targetKind?: string,
  closure = memberOfClosure(ix, root),
): Found {
  const memberOf = ix.edgeKindId('MemberOf');
  const nodes = new Set<number>();
  const grantEdges: number[] = [];
  const useful = new Set<number>();
  grants(ix, root, kinds, targetKind, closure, (p, x, v) => {
    nodes.add(v);
    grantEdges.push(p);
    useful.add(x);
  });
  // MemberOf edges on a path from root to a granting group: between closure nodes that reach one. The closure is
  // closed under outbound MemberOf, so this looks only at its own edges (walking back from a granting group through
  // all its members instead cost 11 % of the server's CPU on tier M: Domain Users has every user as a member).
  for (let grew = useful.size > 0; grew;) {
    grew = false;
    for (const u of closure) {
      if (useful.has(u)) continue;
      for (let p = ix.outOffsets[u]!; p < ix.outOffsets[u + 1]!; p++) {
        if (ix.outKinds[p] === memberOf && useful.has(ix.outTargets[p]!)) {
          useful.add(u);
          grew = true;
          break;
        }
      }
    }
  }
  const edges = new Set(grantEdges);
  for (const u of useful) {
    for (let p = ix.outOffsets[u]!; p < ix.outOffsets[u + 1]!; p++) {
      if (ix.outKinds[p] === memberOf && useful.has(ix.outTargets[p]!)) edges.add(p);
    }
  }
  return { nodes, edges };
}

/** Each edge of `kinds` from a node of `closure` to a target (with `targetKind`, when given) other than `root`. */
function grants(
  ix: GraphIndex,
  root: number,
  kinds: readonly string[],
  targetKind: string | undefined,
  closure: Iterable<number>,
  onGrant: (pos: number, from: number, to: number) => void,
): void {
  const wanted = [...new Set(kinds.map((k) => ix.edgeKindId(k)))].filter((k) => k >= 0);
  const bit = targetKind ? ix.kindBit(targetKind) : 0;
  const out = ix.side('out');
  for (const x of closure) {
    for (const kind of wanted) {
      for (let p = ix.kindStart(out, x, kind), to = ix.kindStart(out, x, kind + 1); p < to; p++) {
        const v = ix.outTargets[p]!;
        if (v === root || (targetKind && !ix.hasKind(v, bit))) continue;
        onGrant(p, x, v);
      }
    }
  }
}

/** How many nodes controllersOf would list. */
function countControllers(ix: GraphIndex, root: number): number {
  const acl = ix.kindSet(ACL_KINDS);
  const direct: number[] = [];
  for (let q = ix.inOffsets[root]!; q < ix.inOffsets[root + 1]!; q++) {
    if (acl[ix.outKinds[ix.inEdge[q]!]!] === 1 && ix.inSources[q] !== root) direct.push(ix.inSources[q]!);
  }
  return reach(ix, direct, 'in', ix.edgeKindId('MemberOf')).filter((x) => x !== root).length;
}

/**
 * (x)-[:MemberOf*0..]->(y)-[:<ACL>]->(root): whoever controls `root` directly (y) and everyone who belongs to such a
 * controller (x). BloodHound's inbound controllers list.
 */
export function controllersOf(ix: GraphIndex, root: number): Found {
  const acl = ix.kindSet(ACL_KINDS);
  const memberOf = ix.edgeKindId('MemberOf');
  const nodes = new Set<number>();
  const edges = new Set<number>();
  for (let q = ix.inOffsets[root]!; q < ix.inOffsets[root + 1]!; q++) {
    const p = ix.inEdge[q]!;
    if (acl[ix.outKinds[p]!] !== 1) continue;
    const y = ix.inSources[q]!;
    if (y === root) continue;
    edges.add(p);
    for (const x of walk(ix, y, 'in', memberOf, (pos) => edges.add(pos))) if (x !== root) nodes.add(x);
  }
  return { nodes, edges };
}

/** GPOs that apply to a node, through the containers holding it (see rules/gpo.ts). */
export function gposAffecting(ix: GraphIndex, node: number): Set<number> {
  const contains = ix.edgeKindId('Contains');
  const gplink = ix.edgeKindId('GPLink');
  const ou = ix.kindBit('OU');
  const topology: GpoTopology<number> = {
    *parents(n) {
      for (let q = ix.inOffsets[n]!; q < ix.inOffsets[n + 1]!; q++) if (ix.outKinds[ix.inEdge[q]!] === contains) yield ix.inSources[q]!;
    },
    *links(c) {
      for (let q = ix.inOffsets[c]!; q < ix.inOffsets[c + 1]!; q++) {
        const p = ix.inEdge[q]!;
        if (ix.outKinds[p] === gplink) yield { gpo: ix.inSources[q]!, enforced: (ix.outFlags[p]! & 1) === 1 };
      }
    },
    blocksInheritance: (c) => ix.hasKind(c, ou) && ix.blocksInheritance[c] === 1,
  };
  return gposApplyingTo(node, topology);
}

/**
 * Principals of other domains that control a domain's GPOs: those holding an ACL right on a GPO of the domain
 * directly, and members (transitively) of any group holding one. "Other domain" means a domainsid that is present
 * and differs from the domain's; principals without one are not counted (BloodHound's three-valued comparison).
 */
export function foreignGpoControllers(ix: GraphIndex, domainSid: string): Found {
  const sid = ix.sidId(domainSid);
  const gpoBit = ix.kindBit('GPO');
  const groupBit = ix.kindBit('Group');
  const acl = ix.kindSet(ACL_KINDS);
  const memberOf = ix.edgeKindId('MemberOf');
  const foreign = (n: number) => ix.domainSid[n]! >= 0 && ix.domainSid[n] !== sid;
  const nodes = new Set<number>();
  const edges = new Set<number>();
  for (let gpo = 0; gpo < ix.nodeCount; gpo++) {
    if (!ix.hasKind(gpo, gpoBit) || ix.domainSid[gpo] !== sid) continue;
    for (let q = ix.inOffsets[gpo]!; q < ix.inOffsets[gpo + 1]!; q++) {
      const p = ix.inEdge[q]!;
      if (acl[ix.outKinds[p]!] !== 1) continue;
      const x = ix.inSources[q]!;
      if (foreign(x)) {
        nodes.add(x);
        edges.add(p);
      }
      if (!ix.hasKind(x, groupBit)) continue;
      const chain = new Set<number>();
      const members = walk(ix, x, 'in', memberOf, (pos) => chain.add(pos));
      let any = false;
      for (const m of members) {
        if (m !== x && foreign(m)) {
          nodes.add(m);
          any = true;
        }
      }
      if (any) {
        edges.add(p);
        for (const pos of chain) edges.add(pos);
      }
    }
  }
  return { nodes, edges };
}

/** BloodHound's user entity counts (ad_entity.go), computed on the index. */
export function userCounts(ix: GraphIndex, user: number, hubEdges = HUB_EDGES): Record<string, number> {
  const computer = ix.kindBit('Computer');
  const direct = (kind: string) => {
    const k = ix.edgeKindId(kind);
    const out = new Set<number>();
    for (let p = ix.outOffsets[user]!; p < ix.outOffsets[user + 1]!; p++) if (ix.outKinds[p] === k) out.add(ix.outTargets[p]!);
    return out.size;
  };
  const hasSession = ix.edgeKindId('HasSession');
  const sessions = new Set<number>();
  for (let q = ix.inOffsets[user]!; q < ix.inOffsets[user + 1]!; q++) {
    const s = ix.inSources[q]!;
    if (ix.outKinds[ix.inEdge[q]!] === hasSession && ix.hasKind(s, computer)) sessions.add(s);
  }
  const closure = reach(ix, [user], 'out', ix.edgeKindId('MemberOf'));
  const rights = rightCounts(ix, user, closure, hubEdges);
  return {
    sessions: sessions.size,
    groupMembership: closure.length - 1,
    adminRights: rights.adminRights,
    rdpRights: rights.rdpRights,
    backupRights: rights.backupRights,
    dcomRights: rights.dcomRights,
    psRemoteRights: rights.psRemoteRights,
    sqlAdmin: direct('SQLAdmin'),
    constrainedDelegation: direct('AllowedToDelegate'),
    controllables: rights.controllables,
    controllers: countControllers(ix, user),
    gpos: gposAffecting(ix, user).size,
  };
}
