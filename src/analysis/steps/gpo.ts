import { gposApplyingTo, type GpoTopology } from '../../graph/rules/gpo.js';
import { nextTurn } from '../../next-turn.js';
import { turnDue, type AnalysisGraph, type ANode, type Changes } from '../view.js';

export function gpoTopology(g: AnalysisGraph): GpoTopology<ANode> {
  return {
    parents: (n) => g.in(n.id, 'Contains').map((e) => g.node(e.startId)),
    links: (container) => g.in(container.id, 'GPLink').map((e) => ({ gpo: g.node(e.startId), enforced: e.properties.enforced === true })),
    blocksInheritance: (container) => container.kinds.has('OU') && container.props.blocksinheritance === true,
  };
}

const LINK_CONTROL = ['WriteGPLink', 'GenericAll', 'GenericWrite', 'WriteDacl', 'WriteOwnerRaw', 'OwnsRaw'];

/**
 * GPO application: GPOAppliesTo from each GPO to every user and computer it applies to (links, enforcement and
 * blocked inheritance honoured), and CanApplyGPO from principals who can link GPOs on a domain or OU (WriteGPLink
 * or full control of it) to that container.
 */
export async function gpoApplication(g: AnalysisGraph, c: Changes): Promise<void> {
  const topology = gpoTopology(g);
  const due = turnDue();
  for (const n of g.nodes.values()) {
    if (due()) await nextTurn(); // every node's GPOs: ~0.3-0.8 s at tier M, on the serving thread
    if (!n.kinds.has('User') && !n.kinds.has('Computer')) continue;
    for (const gpo of gposApplyingTo(n, topology)) c.edge(gpo, n, 'GPOAppliesTo');
  }
  for (const container of [...g.ofKind('Domain'), ...g.ofKind('OU')]) {
    for (const kind of LINK_CONTROL) for (const e of g.in(container.id, kind)) c.edge(g.node(e.startId), container, 'CanApplyGPO');
  }
}
