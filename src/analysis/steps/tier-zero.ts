import { gposApplyingTo } from '../../graph/rules/gpo.js';
import { TIER_ZERO_KIND } from '../../graph/kinds.js';
import { DEFAULT_TIER_ZERO_SELECTORS } from '../tier-zero-defaults.js';
import { matchRule, parseRule, RuleSyntaxError } from '../tier-zero-rules.js';
import type { AnalysisGraph, ANode } from '../view.js';
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
 * every member of those (transitively, through MemberOf), then every GPO that applies to one of them or is linked
 * to a tier-zero domain or OU.
 */
export function tierZero(g: AnalysisGraph, seeds: readonly TierZeroSeed[] = DEFAULT_TIER_ZERO_SEEDS): ANode[] {
  const set = new Set<number>();
  for (const seed of seeds) for (const n of seedMatches(g, seed)) set.add(n.id);
  for (const id of [...set]) for (const m of g.membersOf(id)) set.add(m);
  const topology = gpoTopology(g);
  for (const id of [...set]) {
    const n = g.node(id);
    for (const gpo of gposApplyingTo(n, topology)) set.add(gpo.id);
    for (const e of g.in(id, 'GPLink')) set.add(e.startId);
  }
  return [...set].map((id) => g.node(id));
}
