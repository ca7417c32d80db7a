import type { AnalysisGraph, ANode } from '../view.js';

const EVERYONE = /-S-1-1-0$|-S-1-5-11$/;

/** Everyone or Authenticated Users: a set holding one of them (directly or through a group they are in) covers all. */
export function isEveryone(n: ANode): boolean {
  return EVERYONE.test(n.objectid);
}

/**
 * Principals holding every one of several rights at once, each directly or through group membership, computed the
 * way BloodHound's CalculateCrossProductNodeSets does, because its harnesses pin the exact answer:
 * - a set that reaches Everyone or Authenticated Users (directly or through a member group) adds no condition;
 *   if every set does, the answer is all their first-degree principals; if all but one do, that set's.
 * - otherwise the FIRST set is the reference (the order of `sets` matters): its first-degree principals that are
 *   in every other set (unrolled) qualify; members of the others are checked group by group, smallest group
 *   first, a qualifying group standing for its members, and the remaining members one by one.
 * So a user in a qualifying group can still get its own edge when it also qualifies through another
 * first-degree group of the reference set (adcsesc1-1: User1-1).
 */
export function crossProduct(g: AnalysisGraph, sets: ANode[][]): ANode[] {
  if (sets.length < 2) return [];
  const isGroup = (n: ANode) => n.kinds.has('Group') || n.kinds.has('ADLocalGroup');
  const firstDegree: Set<number>[] = [];
  const unrolled: Set<number>[] = [];
  for (const set of sets) {
    const first = new Set(set.map((n) => n.id));
    const all = new Set(first);
    for (const n of set) if (isGroup(n)) for (const m of g.membersOf(n.id)) all.add(m);
    if ([...all].some((id) => isEveryone(g.node(id)))) continue;
    firstDegree.push(first);
    unrolled.push(all);
  }
  if (firstDegree.length === 0) return nodes(g, new Set(sets.flat().map((n) => n.id)));
  if (firstDegree.length === 1) return nodes(g, firstDegree[0]!);

  const check = new Set([...unrolled[1]!].filter((id) => unrolled.slice(2).every((s) => s.has(id))));
  const result = new Set<number>();
  const ref = new Set<number>();
  for (const id of firstDegree[0]!) {
    if (check.has(id)) result.add(id);
    else for (const m of g.membersOf(id)) ref.add(m);
  }
  const groups = [...ref]
    .map((id) => ({ id, size: g.membersOf(id).size }))
    .filter((x) => x.size > 0)
    .sort((a, b) => a.size - b.size || a.id - b.id);
  for (const { id } of groups) {
    if (!ref.has(id)) continue; // already stood for by a smaller qualifying group's shortcut
    ref.delete(id);
    if (!check.has(id)) continue;
    result.add(id);
    // BloodHound toggles the group's members (a bitmap xor), which is "remove" for members still in the set.
    for (const m of g.membersOf(id))
      if (ref.has(m)) ref.delete(m);
      else ref.add(m);
  }
  for (const id of ref) if (check.has(id)) result.add(id);
  return nodes(g, result);
}

const nodes = (g: AnalysisGraph, ids: Set<number>): ANode[] => [...ids].sort((a, b) => a - b).map((id) => g.node(id));

/** Every non-group principal a set of principals stands for: groups are replaced by their (nested) members. */
export function expandToNonGroups(g: AnalysisGraph, nodes: ANode[]): Set<number> {
  const out = new Set<number>();
  for (const n of nodes) {
    if (!n.kinds.has('Group')) out.add(n.id);
    else for (const m of g.membersOf(n.id)) if (!g.node(m).kinds.has('Group')) out.add(m);
  }
  return out;
}
