import type { AnalysisGraph, ANode } from '../view.js';

const EVERYONE = /-S-1-1-0$|-S-1-5-11$/;

/** Everyone or Authenticated Users: a set holding one of them (directly or through a group they are in) covers all. */
export function isEveryone(n: ANode): boolean {
  return EVERYONE.test(n.objectid);
}

/**
 * Principals holding every one of several rights at once, each directly or through group membership
 * (CalculateCrossProductNodeSets): the answer is the smallest set of principals that covers everyone holding all
 * of them, i.e. a principal is left out when a group it belongs to already qualifies. A set containing Everyone or
 * Authenticated Users (or a group they are members of) covers everyone and so adds no condition.
 */
export function crossProduct(g: AnalysisGraph, sets: ANode[][]): ANode[] {
  if (!sets.length || sets.some((s) => s.length === 0)) return [];
  const covers = (set: ANode[]): ((id: number) => boolean) | null => {
    const ids = new Set(set.map((n) => n.id));
    if (set.some(isEveryone) || [...ids].some((id) => [...g.membersOf(id)].some((m) => isEveryone(g.node(m))))) return null;
    return (id) => ids.has(id) || [...g.groupsOf(id)].some((x) => ids.has(x));
  };
  const tests = sets.map(covers);
  const candidates = new Set<number>();
  for (const set of sets) {
    for (const n of set) {
      candidates.add(n.id);
      for (const m of g.membersOf(n.id)) candidates.add(m);
    }
  }
  const qualified = new Set([...candidates].filter((id) => tests.every((t) => t === null || t(id))));
  return [...qualified].filter((id) => ![...g.groupsOf(id)].some((x) => qualified.has(x))).map((id) => g.node(id));
}

/** Every non-group principal a set of principals stands for: groups are replaced by their (nested) members. */
export function expandToNonGroups(g: AnalysisGraph, nodes: ANode[]): Set<number> {
  const out = new Set<number>();
  for (const n of nodes) {
    if (!n.kinds.has('Group')) out.add(n.id);
    else for (const m of g.membersOf(n.id)) if (!g.node(m).kinds.has('Group')) out.add(m);
  }
  return out;
}
