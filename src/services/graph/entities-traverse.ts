import type { GraphIndex } from '../../graph/index/graph-index.js';
import { foreignGpoControllers, gposAffecting, type Found } from '../../graph/index/traversals.js';

/**
 * The few traversal shapes every entity panel list is made of. A list is data (entities-lists.ts): a shape, edge
 * kinds, a direction and the kinds its results must have; this module runs any of them on the in-memory index.
 */
export type Dir = 'out' | 'in';

export type Traversal =
  /** One hop: (root)-[edges]->(t), or (t)-[edges]->(root) inbound. */
  | { shape: 'direct'; dir: Dir; edges: readonly string[] }
  /** Any number of hops over `edges` (at least one). */
  | { shape: 'transitive'; dir: Dir; edges: readonly string[] }
  /**
   * Rights held through group membership. out: (root)-[M*0..]->(x)-[edges]->(t); in: (t)-[M*0..]->(y)-[edges]->(root),
   * M being `membership` (MemberOf, AZMemberOf).
   */
  | { shape: 'viaMembership'; dir: Dir; edges: readonly string[]; membership: string }
  /** One hop over `first`, then any number over `then` (GPO → linked containers → what they contain). */
  | { shape: 'chain'; first: readonly string[]; then: readonly string[] }
  /** Members (transitive, inbound `membership`) of the root, then one hop over `edges` from `dir` of them. */
  | { shape: 'ofMembers'; membership: string; dir: Dir; edges: readonly string[] }
  /** Principals of other domains that are direct members of, or hold `edges` via membership on, nodes of the domain. */
  | { shape: 'foreign'; how: 'members' | 'admins' }
  /** Every node of the root domain (same domainsid), BloodHound's "contained" domain lists. */
  | { shape: 'inDomain' }
  | { shape: 'gposApplying' }
  | { shape: 'foreignGpoControllers' };

export interface TargetFilter {
  /** Results must have one of these kinds (none: any node). */
  kinds?: readonly string[];
  /** The root's domain SID (a domain's own object id), for the domain-wide shapes. */
  domainSid?: string;
}

/** Calls `fn(pos, other)` for every edge of `kinds` at node `u` in direction `dir`. */
function eachEdge(ix: GraphIndex, u: number, dir: Dir, kinds: Uint8Array, fn: (pos: number, other: number) => void): void {
  if (dir === 'out') {
    for (let p = ix.outOffsets[u]!; p < ix.outOffsets[u + 1]!; p++) if (kinds[ix.outKinds[p]!] === 1) fn(p, ix.outTargets[p]!);
  } else {
    for (let q = ix.inOffsets[u]!; q < ix.inOffsets[u + 1]!; q++) {
      const p = ix.inEdge[q]!;
      if (kinds[ix.outKinds[p]!] === 1) fn(p, ix.inSources[q]!);
    }
  }
}

/** Breadth-first closure from `starts` over `kinds` in `dir`; the starts are included; edges walked go to `edges`. */
function closure(ix: GraphIndex, starts: Iterable<number>, dir: Dir, kinds: Uint8Array, edges?: Set<number>): Set<number> {
  const seen = new Set<number>(starts);
  const queue = [...seen];
  for (let i = 0; i < queue.length; i++) {
    eachEdge(ix, queue[i]!, dir, kinds, (p, v) => {
      edges?.add(p);
      if (!seen.has(v)) {
        seen.add(v);
        queue.push(v);
      }
    });
  }
  return seen;
}

function kindTest(ix: GraphIndex, kinds: readonly string[] | undefined): (n: number) => boolean {
  if (!kinds?.length) return () => true;
  const bits = kinds.map((k) => ix.kindBit(k)).filter((b) => b >= 0);
  return (n) => bits.some((b) => ix.hasKind(n, b));
}

/** Runs a traversal from dense node `root`; the root itself is never a result. */
export function traverse(ix: GraphIndex, root: number, t: Traversal, filter: TargetFilter = {}): Found {
  const nodes = new Set<number>();
  const edges = new Set<number>();
  const wanted = kindTest(ix, filter.kinds);
  const keep = (n: number) => {
    if (n !== root && wanted(n)) nodes.add(n);
  };
  switch (t.shape) {
    case 'direct':
      eachEdge(ix, root, t.dir, ix.kindSet(t.edges), (p, v) => {
        if (v !== root && wanted(v)) {
          nodes.add(v);
          edges.add(p);
        }
      });
      break;
    case 'transitive':
      for (const v of closure(ix, [root], t.dir, ix.kindSet(t.edges), edges)) keep(v);
      break;
    case 'viaMembership': {
      const m = ix.kindSet([t.membership]);
      const hop = ix.kindSet(t.edges);
      if (t.dir === 'out') {
        const groups = closure(ix, [root], 'out', m, edges);
        for (const x of groups) eachEdge(ix, x, 'out', hop, (p, v) => v !== root && wanted(v) && (nodes.add(v), edges.add(p)));
      } else {
        const holders: number[] = [];
        eachEdge(ix, root, 'in', hop, (p, y) => {
          holders.push(y);
          edges.add(p);
        });
        for (const v of closure(ix, holders, 'in', m, edges)) keep(v);
      }
      break;
    }
    case 'chain': {
      const firsts: number[] = [];
      eachEdge(ix, root, 'out', ix.kindSet(t.first), (p, v) => {
        firsts.push(v);
        edges.add(p);
      });
      for (const v of closure(ix, firsts, 'out', ix.kindSet(t.then), edges)) keep(v);
      break;
    }
    case 'ofMembers': {
      const members = closure(ix, [root], 'in', ix.kindSet([t.membership]), edges);
      for (const m of members) eachEdge(ix, m, t.dir, ix.kindSet(t.edges), (p, v) => (keep(v), edges.add(p)));
      break;
    }
    case 'foreign':
      return foreignPrincipals(ix, ix.sidId(filter.domainSid ?? ''), t.how, wanted);
    case 'inDomain': {
      const sid = ix.sidId(filter.domainSid ?? '');
      for (let n = 0; n < ix.nodeCount; n++) if (ix.domainSid[n] === sid) keep(n);
      break;
    }
    case 'gposApplying':
      for (const g of gposAffecting(ix, root)) keep(g);
      break;
    case 'foreignGpoControllers':
      return foreignGpoControllers(ix, filter.domainSid ?? '');
  }
  return { nodes, edges };
}

/** Foreign members of the domain's groups, or foreign principals with AdminTo (through groups) on its computers. */
function foreignPrincipals(ix: GraphIndex, sid: number, how: 'members' | 'admins', wanted: (n: number) => boolean): Found {
  const nodes = new Set<number>();
  const edges = new Set<number>();
  if (sid < 0) return { nodes, edges };
  const foreign = (n: number) => ix.domainSid[n]! >= 0 && ix.domainSid[n] !== sid && wanted(n);
  const bit = ix.kindBit(how === 'members' ? 'Group' : 'Computer');
  const memberOf = ix.kindSet(['MemberOf']);
  const adminTo = ix.kindSet(['AdminTo']);
  for (let n = 0; n < ix.nodeCount; n++) {
    if (ix.domainSid[n] !== sid || !ix.hasKind(n, bit)) continue;
    if (how === 'members') {
      eachEdge(ix, n, 'in', memberOf, (p, v) => foreign(v) && (nodes.add(v), edges.add(p)));
    } else {
      const holders: number[] = [];
      eachEdge(ix, n, 'in', adminTo, (p, y) => (holders.push(y), edges.add(p)));
      for (const v of closure(ix, holders, 'in', memberOf, edges)) if (foreign(v)) nodes.add(v);
    }
  }
  return { nodes, edges };
}
