import type { AnalysisGraph, ANode, Changes } from '../view.js';

const EVERYONE = /-S-1-1-0$|-S-1-5-11$/;

/**
 * Principals holding two rights at once, each directly or through group membership (CalculateCrossProductNodeSets):
 * the answer is the smallest set of principals that covers everyone holding both, i.e. a principal is left out when
 * a group it belongs to already holds both. A set containing Everyone or Authenticated Users covers everyone.
 */
export function crossProduct(g: AnalysisGraph, a: ANode[], b: ANode[]): ANode[] {
  const expand = (set: ANode[]): ((id: number) => boolean) => {
    if (set.some((n) => EVERYONE.test(n.objectid))) return () => true;
    const ids = new Set(set.map((n) => n.id));
    return (id) => ids.has(id) || [...g.groupsOf(id)].some((x) => ids.has(x));
  };
  const inA = expand(a);
  const inB = expand(b);
  const candidates = new Set<number>();
  for (const n of [...a, ...b]) {
    candidates.add(n.id);
    for (const m of g.membersOf(n.id)) candidates.add(m);
  }
  const both = [...candidates].filter((id) => inA(id) && inB(id));
  const qualified = new Set(both);
  return both.filter((id) => ![...g.groupsOf(id)].some((x) => qualified.has(x))).map((id) => g.node(id));
}

/** DCSync (GetChanges + GetChangesAll on a domain) and SyncLAPSPassword (GetChanges + GetChangesInFilteredSet). */
export function dcsync(g: AnalysisGraph, c: Changes): void {
  for (const d of g.ofKind('Domain')) {
    const holders = (kind: string) => g.in(d.id, kind).map((e) => g.node(e.startId));
    const changes = holders('GetChanges');
    if (!changes.length) continue;
    for (const p of crossProduct(g, changes, holders('GetChangesAll'))) c.edge(p, d, 'DCSync');
    const filtered = holders('GetChangesInFilteredSet');
    if (!filtered.length) continue;
    const lapsComputers = g.ofKind('Computer').filter((x) => x.props.haslaps === true && x.props.domainsid === d.objectid);
    for (const p of crossProduct(g, changes, filtered)) for (const computer of lapsComputers) c.edge(p, computer, 'SyncLAPSPassword');
  }
}
