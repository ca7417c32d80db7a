import { turnDue, type AnalysisGraph, type ANode, type Changes } from '../view.js';
import { nextTurn } from '../../next-turn.js';

/**
 * OwnsRaw / WriteOwnerRaw become Owns / WriteOwner (PostOwnsAndWriteOwner). Where the target's domain enforces
 * BlockOwnerImplicitRights (dsHeuristics character 29 is "1"), owners of computers and (g)MSAs only get Owns when
 * they are Domain Admins or Enterprise Admins (or members), and WriteOwner is kept only on other objects.
 */
export async function ownsAndWriteOwner(g: AnalysisGraph, c: Changes): Promise<void> {
  const enforcing = new Set(
    g
      .ofKind('Domain')
      .filter((d) => typeof d.props.dsheuristics === 'string' && (d.props.dsheuristics as string)[28] === '1')
      .map((d) => d.objectid),
  );
  const computerDerived = (n: ANode) => n.kinds.has('Computer') || n.props.gmsa === true || n.props.msa === true;
  const privileged = (owner: ANode) => {
    const sids = [owner.id, ...g.groupsOf(owner.id)].map((id) => g.node(id).objectid);
    return sids.some((s) => s.endsWith('-512') || s.endsWith('-519'));
  };
  const carry = (p: Record<string, unknown>) => {
    const { lastseen: _seen, ...rest } = p;
    return { ...rest, inheritancehash: rest.inheritancehash ?? '' };
  };
  // The longest step at tier M (~1 s for ~200k edges): it lets the serving thread answer in between.
  const due = turnDue();
  for (const e of g.edges('OwnsRaw')) {
    if (due()) await nextTurn();
    const owner = g.node(e.startId);
    const target = g.node(e.endId);
    const enforced = enforcing.has(String(target.props.domainsid ?? ''));
    if (!enforced || !computerDerived(target) || privileged(owner)) c.edge(owner, target, 'Owns', carry(e.properties));
  }
  for (const e of g.edges('WriteOwnerRaw')) {
    if (due()) await nextTurn();
    const target = g.node(e.endId);
    if (!enforcing.has(String(target.props.domainsid ?? '')) || !computerDerived(target)) {
      c.edge(g.node(e.startId), target, 'WriteOwner', carry(e.properties));
    }
  }
}
