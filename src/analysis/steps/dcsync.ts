import type { AnalysisGraph, Changes } from '../view.js';
import { crossProduct } from './cross-product.js';

/** DCSync (GetChanges + GetChangesAll on a domain) and SyncLAPSPassword (GetChanges + GetChangesInFilteredSet). */
export function dcsync(g: AnalysisGraph, c: Changes): void {
  for (const d of g.ofKind('Domain')) {
    const holders = (kind: string) => g.in(d.id, kind).map((e) => g.node(e.startId));
    const changes = holders('GetChanges');
    if (!changes.length) continue;
    for (const p of crossProduct(g, [changes, holders('GetChangesAll')])) c.edge(p, d, 'DCSync');
    const filtered = holders('GetChangesInFilteredSet');
    if (!filtered.length) continue;
    const lapsComputers = g.ofKind('Computer').filter((x) => x.props.haslaps === true && x.props.domainsid === d.objectid);
    for (const p of crossProduct(g, [changes, filtered])) for (const computer of lapsComputers) c.edge(p, computer, 'SyncLAPSPassword');
  }
}
