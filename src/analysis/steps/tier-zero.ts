import { gposApplyingTo } from '../../graph/rules/gpo.js';
import { nextTurn } from '../../next-turn.js';
import { TIER_ZERO_KIND } from '../../graph/kinds.js';
import { DEFAULT_TIER_ZERO_SELECTORS } from '../tier-zero-defaults.js';
import { matchRule, parseRule, RuleSyntaxError } from '../tier-zero-rules.js';
import { turnDue, type AnalysisGraph, type ANode } from '../view.js';
import { gpoTopology } from './gpo.js';

/** A seed of a Tier Zero selector, as the asset-group stores hold it. */
export interface TierZeroSeed {
  type: string;
  value: string;
}

export const DEFAULT_TIER_ZERO_SEEDS: readonly TierZeroSeed[] = DEFAULT_TIER_ZERO_SELECTORS.map((s) => ({ type: 'rule', value: s.rule }));

/** The nodes one seed selects: a rule, an object id or a kind (the analysis tag itself is the output, not a seed). */
export function seedMatches(g: AnalysisGraph, seed: TierZeroSeed): ANode[] {
  if (seed.type === 'objectid') {
    const n = g.byObjectId.get(seed.value.toUpperCase()) ?? g.byObjectId.get(seed.value);
    return n ? [n] : [];
  }
  if (seed.type === 'kind') return seed.value === TIER_ZERO_KIND ? [] : g.ofKind(seed.value);
  if (seed.type === 'rule') {
    try {
      return matchRule(g, parseRule(seed.value));
    } catch (err) {
      if (err instanceof RuleSyntaxError) return []; // stored before validation existed; selects nothing
      throw err;
    }
  }
  return [];
}

/**
 * The tier-zero set: what the Tier Zero zone's selectors select (by default BloodHound's default selectors), then
 * their children as BloodHound's selector expansion defines them, until nothing new is found (members of AD and
 * Entra groups, holders of selected Entra roles (AZHasRole / AZRoleEligible), what selected subscriptions,
 * resource and management groups contain), then the Azure parents (containing subscriptions, resource and
 * management groups; the app a service principal runs as), then every GPO that applies to one of them or is linked
 * to a tier-zero domain or OU.
 */
export async function tierZero(g: AnalysisGraph, seeds: readonly TierZeroSeed[] = DEFAULT_TIER_ZERO_SEEDS): Promise<ANode[]> {
  const set = new Set<number>();
  // Runs on the serving thread (~0.3 s at tier M): a turn after each seed (a rule may scan every node) and every
  // few thousand nodes below.
  for (const seed of seeds) {
    for (const n of seedMatches(g, seed)) set.add(n.id);
    await nextTurn();
  }
  const due = turnDue();
  const queue = [...set];
  while (queue.length) {
    if (due()) await nextTurn();
    for (const child of children(g, g.node(queue.pop()!))) {
      if (set.has(child)) continue;
      set.add(child);
      queue.push(child);
    }
  }
  for (const id of [...set]) for (const parent of azureParents(g, g.node(id))) set.add(parent);
  const topology = gpoTopology(g);
  for (const id of [...set]) {
    if (due()) await nextTurn();
    const n = g.node(id);
    for (const gpo of gposApplyingTo(n, topology)) set.add(gpo.id);
    for (const e of g.in(id, 'GPLink')) set.add(e.startId);
  }
  return [...set].map((id) => g.node(id));
}

const AZ_CONTAINERS = ['AZSubscription', 'AZResourceGroup', 'AZManagementGroup'];

/** The nodes a tier-zero node makes tier zero (BloodHound's fetchChildNodes, without AD OU/container contents). */
function children(g: AnalysisGraph, n: ANode): number[] {
  if (n.kinds.has('Group')) return [...g.membersOf(n.id)];
  if (n.kinds.has('AZGroup')) return reach(n.id, (id) => g.in(id, 'AZMemberOf').map((e) => e.startId));
  if (n.kinds.has('AZRole')) return [...g.in(n.id, 'AZHasRole'), ...g.in(n.id, 'AZRoleEligible')].map((e) => e.startId);
  if (AZ_CONTAINERS.some((k) => n.kinds.has(k))) return reach(n.id, (id) => g.out(id, 'AZContains').map((e) => e.endId));
  return [];
}

/** Subscriptions, resource and management groups containing an Entra/Azure node, and the app a service principal runs as. */
function azureParents(g: AnalysisGraph, n: ANode): number[] {
  if (!n.kinds.has('AZBase')) return [];
  const out = [...reach(n.id, (id) => g.in(id, 'AZContains').map((e) => e.startId))].filter((id) =>
    AZ_CONTAINERS.some((k) => g.node(id).kinds.has(k)),
  );
  if (n.kinds.has('AZServicePrincipal')) out.push(...g.in(n.id, 'AZRunsAs').map((e) => e.startId));
  return out;
}

/** Every node reachable from `start` by `next`, not `start` itself. */
function reach(start: number, next: (id: number) => number[]): number[] {
  const seen = new Set<number>();
  const stack = [start];
  while (stack.length) {
    for (const m of next(stack.pop()!)) {
      if (m === start || seen.has(m)) continue;
      seen.add(m);
      stack.push(m);
    }
  }
  return [...seen];
}
