import { ACL_KINDS } from '../kinds.js';
import { gposApplyingTo, type GpoTopology } from '../rules/gpo.js';
import type { GraphIndex } from './graph-index.js';

/** A traversal's answer: the nodes it returns, and the edges (out positions) of the paths that lead to them. */
export interface Found {
  nodes: Set<number>;
  edges: Set<number>;
}

function walk(ix: GraphIndex, start: number, dir: 'out' | 'in', kind: number, visit?: (pos: number, to: number) => void): Set<number> {
  const seen = new Set<number>([start]);
  const stack = [start];
  const side = ix.side(dir);
  while (stack.length) {
    const u = stack.pop()!;
    for (let q = side.offsets[u]!; q < side.offsets[u + 1]!; q++) {
      const p = side.edges ? side.edges[q]! : q;
      if (ix.outKinds[p] !== kind) continue;
      const v = side.others[q]!;
      visit?.(p, v);
      if (!seen.has(v)) {
        seen.add(v);
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
 * The edges are those of every such path.
 */
export function throughMembership(ix: GraphIndex, root: number, kinds: readonly string[], targetKind?: string): Found {
  const memberOf = ix.edgeKindId('MemberOf');
  const wanted = ix.kindSet(kinds);
  const bit = targetKind ? ix.kindBit(targetKind) : 0;
  const closure = memberOfClosure(ix, root);
  const nodes = new Set<number>();
  const grantEdges: number[] = [];
  const granting = new Set<number>();
  for (const x of closure) {
    for (let p = ix.outOffsets[x]!; p < ix.outOffsets[x + 1]!; p++) {
      if (wanted[ix.outKinds[p]!] !== 1) continue;
      const v = ix.outTargets[p]!;
      if (v === root || (targetKind && !ix.hasKind(v, bit))) continue;
      nodes.add(v);
      grantEdges.push(p);
      granting.add(x);
    }
  }
  // MemberOf edges on a path from root to a granting group: between closure nodes that can reach one.
  const useful = new Set<number>();
  for (const g of granting) for (const n of walk(ix, g, 'in', memberOf)) if (closure.has(n)) useful.add(n);
  const edges = new Set(grantEdges);
  for (const u of useful) {
    for (let p = ix.outOffsets[u]!; p < ix.outOffsets[u + 1]!; p++) {
      if (ix.outKinds[p] === memberOf && useful.has(ix.outTargets[p]!)) edges.add(p);
    }
  }
  return { nodes, edges };
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
export function userCounts(ix: GraphIndex, user: number): Record<string, number> {
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
  return {
    sessions: sessions.size,
    groupMembership: memberOfClosure(ix, user).size - 1,
    adminRights: throughMembership(ix, user, ['AdminTo'], 'Computer').nodes.size,
    rdpRights: throughMembership(ix, user, ['CanRDP'], 'Computer').nodes.size,
    backupRights: throughMembership(ix, user, ['CanBackup'], 'Computer').nodes.size,
    dcomRights: throughMembership(ix, user, ['ExecuteDCOM'], 'Computer').nodes.size,
    psRemoteRights: throughMembership(ix, user, ['CanPSRemote'], 'Computer').nodes.size,
    sqlAdmin: direct('SQLAdmin'),
    constrainedDelegation: direct('AllowedToDelegate'),
    controllables: throughMembership(ix, user, ACL_KINDS).nodes.size,
    controllers: controllersOf(ix, user).nodes.size,
    gpos: gposAffecting(ix, user).size,
  };
}
