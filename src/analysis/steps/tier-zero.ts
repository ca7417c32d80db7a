import { gposApplyingTo } from '../../graph/rules/gpo.js';
import type { AnalysisGraph, ANode } from '../view.js';
import { gpoTopology } from './gpo.js';

/**
 * Well-known principals that are tier zero in every domain: built-in Administrator and krbtgt, Domain/Enterprise/
 * Schema/Key Admins, Domain Controllers, Cert Publishers, Enterprise DCs, and the privileged builtin groups
 * (Administrators, Account/Server/Print/Backup Operators, Performance Log Users, Distributed COM Users,
 * Cryptographic Operators).
 */
const TIER_ZERO_SUFFIXES = [
  '-500',
  '-502',
  '-512',
  '-516',
  '-517',
  '-518',
  '-519',
  '-526',
  '-527',
  '-S-1-5-9',
  '-S-1-5-32-544',
  '-S-1-5-32-548',
  '-S-1-5-32-549',
  '-S-1-5-32-550',
  '-S-1-5-32-551',
  '-S-1-5-32-559',
  '-S-1-5-32-562',
  '-S-1-5-32-569',
];

/**
 * The tier-zero set (TagAssetGroupsAndTierZero): every domain, the well-known principals above, the AdminSDHolder container; then everything that is a member of one of them (transitively);
 * then every GPO that applies to one of them or is linked to a tier-zero domain or OU.
 */
export function tierZero(g: AnalysisGraph): ANode[] {
  const set = new Set<number>();
  for (const n of g.nodes.values()) {
    const name = typeof n.props.name === 'string' ? n.props.name : '';
    const principal = n.kinds.has('User') || n.kinds.has('Group') || n.kinds.has('Computer');
    if (
      n.kinds.has('Domain') ||
      (principal && TIER_ZERO_SUFFIXES.some((s) => n.objectid.endsWith(s))) ||
      (n.kinds.has('Container') && name.startsWith('ADMINSDHOLDER@'))
    ) {
      set.add(n.id);
    }
  }
  for (const id of [...set]) for (const m of g.membersOf(id)) set.add(m);
  const topology = gpoTopology(g);
  for (const id of [...set]) {
    const n = g.node(id);
    for (const gpo of gposApplyingTo(n, topology)) set.add(gpo.id);
    for (const e of g.in(id, 'GPLink')) set.add(e.startId);
  }
  return [...set].map((id) => g.node(id));
}
