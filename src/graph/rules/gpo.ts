/**
 * Which GPOs apply to an object (BloodHound's FetchEnforcedGPOs): walk up the containers that hold it (OU, domain,
 * nearest first). A GPO linked to a container applies when the link is enforced, or when no OU between that
 * container and the object blocks inheritance.
 */
export interface GpoTopology<N> {
  /** Containers that directly contain `node` (inbound Contains). */
  parents(node: N): Iterable<N>;
  /** GPO links on a container. */
  links(container: N): Iterable<{ gpo: N; enforced: boolean }>;
  /** Whether a container is an OU that blocks inheritance. */
  blocksInheritance(container: N): boolean;
}

export function gposApplyingTo<N>(node: N, t: GpoTopology<N>): Set<N> {
  const applied = new Set<N>();
  // Breadth-first up the containment tree; "blocked" is carried per branch.
  let frontier: { node: N; blocked: boolean }[] = [{ node, blocked: false }];
  const seen = new Set<N>([node]);
  while (frontier.length) {
    const next: { node: N; blocked: boolean }[] = [];
    for (const { node: child, blocked } of frontier) {
      for (const parent of t.parents(child)) {
        if (seen.has(parent)) continue;
        seen.add(parent);
        for (const link of t.links(parent)) if (link.enforced || !blocked) applied.add(link.gpo);
        next.push({ node: parent, blocked: blocked || t.blocksInheritance(parent) });
      }
    }
    frontier = next;
  }
  return applied;
}
