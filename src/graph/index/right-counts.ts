import { ACL_KINDS } from '../kinds.js';
import type { GraphIndex } from './graph-index.js';

/** The counted rights of a user: five over Computer targets (bits 0-4), and the ACL rights (bit 5, any target). */
const RIGHT_COUNTS = [
  ['adminRights', ['AdminTo']],
  ['rdpRights', ['CanRDP']],
  ['backupRights', ['CanBackup']],
  ['dcomRights', ['ExecuteDCOM']],
  ['psRemoteRights', ['CanPSRemote']],
  ['controllables', ACL_KINDS],
] as const;
export type RightCounts = Record<(typeof RIGHT_COUNTS)[number][0], number>;
const COMPUTER_RIGHTS = 0b11111;

/**
 * A group with at least this many outbound edges is a hub (Domain Users, Everyone, Authenticated Users): almost
 * every user's closure holds the same few, and scanning their edges was most of an entity count request.
 */
export const HUB_EDGES = 1024;
/** Bytes of hub unions kept per index (each is one byte per node: ~116 KB at tier M, ~1.2 MB at tier L). */
const UNION_BYTES = 32 << 20;

/** What a set of hubs grants together: per node, the rights it is a target of; per right, how many targets. */
interface HubUnion {
  rights: Uint8Array;
  counts: number[];
}

interface Scratch {
  /** Which counts each edge kind feeds. */
  mask: Uint8Array;
  /** Which counts each node has been counted in (valid where the mark table carries the current stamp). */
  counted: Uint8Array;
  /** By the hubs' sorted positions; the least recently used is dropped past maxUnions. */
  unions: Map<string, HubUnion>;
  maxUnions: number;
}

/** Per index, so a rebuilt index (a new generation) starts with nothing cached. */
const scratches = new WeakMap<GraphIndex, Scratch>();

function scratchOf(ix: GraphIndex): Scratch {
  let s = scratches.get(ix);
  if (!s) {
    const mask = new Uint8Array(65536);
    RIGHT_COUNTS.forEach(([, kinds], i) => {
      for (const k of kinds) if (ix.edgeKindId(k) >= 0) mask[ix.edgeKindId(k)]! |= 1 << i;
    });
    const maxUnions = Math.max(4, Math.min(256, Math.floor(UNION_BYTES / Math.max(1, ix.nodeCount))));
    s = { mask, counted: new Uint8Array(ix.nodeCount), unions: new Map(), maxUnions };
    scratches.set(ix, s);
  }
  return s;
}

/** The rights an edge at `p` grants, as count bits (computer rights only over computers). */
function grantedAt(ix: GraphIndex, mask: Uint8Array, computer: number, p: number): number {
  const m = mask[ix.outKinds[p]!]!;
  return m & COMPUTER_RIGHTS && !ix.hasKind(ix.outTargets[p]!, computer) ? m & ~COMPUTER_RIGHTS : m;
}

function hubUnion(ix: GraphIndex, s: Scratch, hubs: number[]): HubUnion {
  const key = hubs.join(',');
  const hit = s.unions.get(key);
  if (hit) {
    // Most recently used last, so the oldest is the first in the map.
    s.unions.delete(key);
    s.unions.set(key, hit);
    return hit;
  }
  const computer = ix.kindBit('Computer');
  const rights = new Uint8Array(ix.nodeCount);
  const counts = RIGHT_COUNTS.map(() => 0);
  for (const x of hubs) {
    for (let p = ix.outOffsets[x]!; p < ix.outOffsets[x + 1]!; p++) {
      const v = ix.outTargets[p]!;
      const fresh = grantedAt(ix, s.mask, computer, p) & ~rights[v]!;
      if (fresh === 0) continue;
      rights[v]! |= fresh;
      for (let i = 0; i < counts.length; i++) if (fresh & (1 << i)) counts[i]!++;
    }
  }
  const union = { rights, counts };
  s.unions.set(key, union);
  if (s.unions.size > s.maxUnions) s.unions.delete(s.unions.keys().next().value!);
  return union;
}

/**
 * What throughMembership would list for each of the six rights, as counts, in one pass over the closure's outbound
 * edges. The hubs of the closure are counted from their union, made once per set of hubs and kept with the index,
 * and only the other groups' edges are scanned: a target already granted by a hub is not counted again, and `root`
 * itself is never counted.
 */
export function rightCounts(ix: GraphIndex, root: number, closure: readonly number[], hubEdges = HUB_EDGES): RightCounts {
  const s = scratchOf(ix);
  const hubs = closure.filter((x) => ix.outOffsets[x + 1]! - ix.outOffsets[x]! >= hubEdges).sort((a, b) => a - b);
  const union = hubs.length ? hubUnion(ix, s, hubs) : undefined;
  const counts = union ? [...union.counts] : RIGHT_COUNTS.map(() => 0);
  const own = union?.rights[root] ?? 0;
  for (let i = 0; i < counts.length; i++) if (own & (1 << i)) counts[i]!--;

  const { mask, counted } = s;
  const computer = ix.kindBit('Computer');
  const { table, stamp } = ix.marks();
  for (const x of closure) {
    const degree = ix.outOffsets[x + 1]! - ix.outOffsets[x]!;
    if (union && degree >= hubEdges) continue;
    for (let p = ix.outOffsets[x]!; p < ix.outOffsets[x + 1]!; p++) {
      if (mask[ix.outKinds[p]!] === 0) continue;
      const v = ix.outTargets[p]!;
      if (v === root) continue;
      let m = grantedAt(ix, mask, computer, p);
      if (union) m &= ~union.rights[v]!;
      if (table[v] !== stamp) {
        table[v] = stamp;
        counted[v] = 0;
      }
      const fresh = m & ~counted[v]!;
      if (fresh === 0) continue;
      counted[v]! |= fresh;
      for (let i = 0; i < counts.length; i++) if (fresh & (1 << i)) counts[i]!++;
    }
  }
  return Object.fromEntries(RIGHT_COUNTS.map(([name], i) => [name, counts[i]!])) as RightCounts;
}
