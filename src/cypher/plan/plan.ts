import type { Direction, Expr, NodePattern, PatternPart, RelPattern } from '../model/ast.js';
import { unsupported } from '../errors.js';
import { conjuncts, freeVariables, hasSubpattern } from './expressions.js';

/**
 * Stage 4: a MATCH's patterns → the order the executor binds them in. Each node and relationship gets a slot name
 * (its variable, or an internal name starting with a space, which no query can write). The plan starts every path
 * at its cheapest node (a bound variable, an object id or name look-up, the rarest label) and walks outwards from
 * it; WHERE is split at AND and each part runs as soon as the variables it reads are bound.
 */

export interface NodeSlot {
  name: string;
  pattern: NodePattern;
}

export interface RelSlot {
  name: string;
  pattern: RelPattern;
}

export type Step =
  | { kind: 'node'; node: NodeSlot; lookup: Lookup | null }
  | {
      kind: 'expand';
      rel: RelSlot;
      from: NodeSlot;
      to: NodeSlot;
      direction: Direction;
      /** walking the pattern right to left */ backwards: boolean;
    }
  | {
      kind: 'shortest';
      part: PartSlots;
      from: NodeSlot;
      to: NodeSlot;
      direction: Direction;
      all: boolean;
      /** WHERE parts that read only the far end and what is bound before: checked as each end is reached. */
      toFilters: Expr[];
    }
  | { kind: 'path'; part: PartSlots; name: string }
  | { kind: 'filter'; expr: Expr };

/** A look-up by property value the graph may answer without scanning (objectid, name). */
export interface Lookup {
  key: string;
  value: Expr;
}

export interface PartSlots {
  nodes: NodeSlot[];
  rels: RelSlot[];
}

export interface MatchPlan {
  steps: Step[];
  /** Slots of relationships, for uniqueness (a relationship is bound at most once per MATCH). */
  relSlots: string[];
}

/** What the planner knows of the graph: how many nodes carry a label, and the look-ups it has. */
export interface GraphStats {
  nodeCount(): number;
  labelCount(label: string): number;
  canLookUp(key: string): boolean;
  /**
   * The share (0..1) of a node pattern's candidates that pass `filters` (WHERE parts reading only that node), from
   * a sample; undefined when the graph cannot tell. Lets the plan start at `(g:Group)` with a rare object id suffix
   * rather than at a smaller label the WHERE does not narrow.
   */
  selectivity?(node: NodeSlot, filters: Expr[]): number | undefined;
}

let anonymous = 0;
const internal = (prefix: string) => ` ${prefix}${anonymous++}`;

export function planMatch(
  patterns: PatternPart[],
  where: Expr | null,
  bound: ReadonlySet<string>,
  stats: GraphStats,
  pathSlot?: string,
): MatchPlan {
  const parts = patterns.map((p) => slots(p));
  const filters = (where ? conjuncts(where) : [])
    .filter((expr) => !narrowedTypes(expr, parts, bound))
    .map((expr) => ({ expr, vars: freeVariables(expr), late: hasSubpattern(expr) }));
  const known = new Set(bound);
  const steps: Step[] = [];
  const relSlots: string[] = [];
  const place = () => {
    for (let i = 0; i < filters.length; i++) {
      const f = filters[i]!;
      if (f.late) continue;
      if ([...f.vars].every((v) => known.has(v) || !patternVariables.has(v))) {
        steps.push({ kind: 'filter', expr: f.expr });
        filters.splice(i--, 1);
      }
    }
  };
  const patternVariables = new Set<string>();
  const pathNames = new Set(patterns.map((p) => p.pathVariable).filter((v): v is string => !!v));
  for (const p of parts) {
    for (const n of p.slots.nodes) patternVariables.add(n.name);
    for (const r of p.slots.rels) patternVariables.add(r.name);
  }
  const lookups = lookupsOf(
    filters.map((f) => f.expr),
    stats,
    bound,
  );
  const shares = selectivities(parts, filters, known, lookups, stats);
  const cost = (n: NodeSlot) => {
    const c = nodeCost(n, known, stats, lookups);
    const share = shares.get(n.name);
    return share === undefined || c < 2 ? c : 2 + (c - 2) * share;
  };
  /** Takes out the WHERE parts that read only what is bound and `extra`. */
  const take = (extra: string): Expr[] => {
    const out: Expr[] = [];
    for (let i = 0; i < filters.length; i++) {
      const f = filters[i]!;
      if (f.late || !f.vars.has(extra) || [...f.vars].some((v) => pathNames.has(v))) continue;
      if ([...f.vars].every((v) => v === extra || known.has(v) || !patternVariables.has(v))) {
        out.push(f.expr);
        filters.splice(i--, 1);
      }
    }
    return out;
  };

  // Parts that touch what is bound first; then the cheapest.
  const todo = [...parts];
  while (todo.length) {
    todo.sort((a, b) => partCost(a, cost) - partCost(b, cost));
    const part = todo.shift()!;
    const { nodes, rels } = part.slots;
    if (part.pattern.shortest) {
      planShortest(part, steps, known, cost, lookups, place, take);
    } else {
      const start = cheapestNode(nodes, cost);
      bindNode(nodes[start]!, steps, known, lookups);
      place();
      for (let i = start; i < rels.length; i++) {
        steps.push({
          kind: 'expand',
          rel: rels[i]!,
          from: nodes[i]!,
          to: nodes[i + 1]!,
          direction: rels[i]!.pattern.direction,
          backwards: false,
        });
        known.add(rels[i]!.name).add(nodes[i + 1]!.name);
        place();
      }
      for (let i = start - 1; i >= 0; i--) {
        steps.push({
          kind: 'expand',
          rel: rels[i]!,
          from: nodes[i + 1]!,
          to: nodes[i]!,
          direction: reverse(rels[i]!.pattern.direction),
          backwards: true,
        });
        known.add(rels[i]!.name).add(nodes[i]!.name);
        place();
      }
    }
    for (const r of rels) relSlots.push(r.name);
    const pathName = part.pattern.pathVariable ?? (pathSlot && patterns.length === 1 ? pathSlot : null);
    if (pathName) {
      steps.push({ kind: 'path', part: part.slots, name: pathName });
      known.add(pathName);
    }
    place();
  }
  for (const f of filters) steps.push({ kind: 'filter', expr: f.expr });
  return { steps, relSlots };
}

function planShortest(
  part: { pattern: PatternPart; slots: PartSlots },
  steps: Step[],
  known: Set<string>,
  cost: (n: NodeSlot) => number,
  lookups: Map<string, Lookup>,
  place: () => void,
  take: (extra: string) => Expr[],
): void {
  const [a, b] = part.slots.nodes as [NodeSlot, NodeSlot];
  const rel = part.slots.rels[0]!;
  if (rel.pattern.range && rel.pattern.range.min > 1) throw unsupported('shortestPath with a minimum length above 1');
  const costA = cost(a);
  const costB = cost(b);
  // The search starts at the cheaper end; the other end is found by the search (or checked when it is bound).
  const [from, to, direction] = costA <= costB ? [a, b, rel.pattern.direction] : [b, a, reverse(rel.pattern.direction)];
  bindNode(from, steps, known, lookups);
  place();
  // A cheap far end (bound, looked up, a rare label) is bound first: each pair then goes to the graph's own
  // bidirectional search, which is far faster than reaching out from one end over the whole graph.
  let toFilters: Expr[] = [];
  if (Math.max(costA, costB) <= CHEAP_END) {
    bindNode(to, steps, known, lookups);
    place();
  } else toFilters = take(to.name);
  steps.push({ kind: 'shortest', part: part.slots, from, to, direction, all: part.pattern.shortest === 'all', toFilters });
  known.add(rel.name).add(to.name);
}

/** Candidates of a shortest path's far end worth a pairwise search each (a look-up, a bound variable, a rare label). */
const CHEAP_END = 66;

function bindNode(node: NodeSlot, steps: Step[], known: Set<string>, lookups: Map<string, Lookup>): void {
  steps.push({ kind: 'node', node, lookup: known.has(node.name) ? null : (lookups.get(node.name) ?? inlineLookup(node)) });
  known.add(node.name);
}

const LOOKUP_KEYS = ['objectid', 'name'];

/** `(n {objectid: 'S-1-5-…'})`: the inline map's look-up, when it has a key the graph can look up. */
function inlineLookup(node: NodeSlot): Lookup | null {
  const props = node.pattern.properties;
  if (!props || props.kind !== 'map') return null;
  for (const key of LOOKUP_KEYS) {
    const entry = props.entries.find(([k]) => k === key);
    if (entry && freeVariables(entry[1]).size === 0) return { key, value: entry[1] };
  }
  return null;
}

/** `WHERE n.objectid = $id` or `= m.onpremid` with m bound before the MATCH (either side): look-ups by variable. */
function lookupsOf(filters: Expr[], stats: GraphStats, bound: ReadonlySet<string>): Map<string, Lookup> {
  const out = new Map<string, Lookup>();
  for (const f of filters) {
    if (f.kind !== 'binary' || f.op !== '=') continue;
    for (const [side, other] of [
      [f.left, f.right],
      [f.right, f.left],
    ] as const) {
      if (
        side.kind === 'prop' &&
        side.target.kind === 'var' &&
        !bound.has(side.target.name) &&
        stats.canLookUp(side.key) &&
        [...freeVariables(other)].every((v) => bound.has(v)) &&
        !hasSubpattern(other)
      ) {
        if (!out.has(side.target.name)) out.set(side.target.name, { key: side.key, value: other });
      }
    }
  }
  return out;
}

function nodeCost(node: NodeSlot, known: ReadonlySet<string>, stats: GraphStats, lookups: Map<string, Lookup>): number {
  if (known.has(node.name)) return 0;
  if (lookups.has(node.name) || (inlineLookup(node) && stats.canLookUp(inlineLookup(node)!.key))) return 1;
  const labels = node.pattern.labels;
  if (labels?.kind === 'name') return 2 + stats.labelCount(labels.name);
  if (labels?.kind === 'and') {
    const counts = labels.items.filter((l) => l.kind === 'name').map((l) => stats.labelCount((l as { name: string }).name));
    if (counts.length) return 2 + Math.min(...counts);
  }
  return 2 + stats.nodeCount() * (node.pattern.properties ? 0.5 : 1);
}

function cheapestNode(nodes: NodeSlot[], cost: (n: NodeSlot) => number): number {
  let best = 0;
  let bestCost = Infinity;
  nodes.forEach((n, i) => {
    const c = cost(n);
    if (c < bestCost) {
      bestCost = c;
      best = i;
    }
  });
  return best;
}

function partCost(part: { slots: PartSlots }, cost: (n: NodeSlot) => number): number {
  return Math.min(...part.slots.nodes.map(cost));
}

/**
 * For each unbound node slot without a look-up, when the graph can estimate it: the share of its candidates that
 * pass its inline map and the WHERE parts reading only it. Only worth asking when the plan has a choice of start.
 */
function selectivities(
  parts: { slots: PartSlots }[],
  filters: { expr: Expr; vars: Set<string>; late: boolean }[],
  known: ReadonlySet<string>,
  lookups: Map<string, Lookup>,
  stats: GraphStats,
): Map<string, number> {
  const out = new Map<string, number>();
  const nodes = parts.flatMap((p) => p.slots.nodes);
  if (!stats.selectivity || nodes.length < 2) return out;
  for (const n of nodes) {
    if (known.has(n.name) || lookups.has(n.name) || out.has(n.name)) continue;
    const own = filters.filter((f) => !f.late && f.vars.size === 1 && f.vars.has(n.name)).map((f) => f.expr);
    if (!own.length && !n.pattern.properties && !n.pattern.where) continue;
    const share = stats.selectivity(n, own);
    if (share !== undefined) out.set(n.name, share);
  }
  return out;
}

/**
 * `WHERE NOT r:MemberOf` (or `r:AdminTo`) on a relationship of listed types: the type list itself narrowed, so the
 * expansion never meets the relationships the test would drop. True when the WHERE part is taken in this way.
 */
function narrowedTypes(expr: Expr, parts: { slots: PartSlots }[], bound: ReadonlySet<string>): boolean {
  const negated = expr.kind === 'not';
  const test = expr.kind === 'not' ? expr.arg : expr;
  if (test.kind !== 'hasLabels' || test.arg.kind !== 'var' || test.labels.kind !== 'name') return false;
  const name = test.arg.name;
  const type = test.labels.name;
  if (bound.has(name)) return false;
  for (const part of parts) {
    const slot = part.slots.rels.find((r) => r.name === name);
    if (!slot) continue;
    const p = slot.pattern;
    if (p.range || !p.types.length) return false;
    const types = p.types.filter((t) => (t === type) !== negated);
    // No type left would read as "any type": the test stays a filter.
    if (!types.length) return false;
    slot.pattern = { ...p, types };
    return true;
  }
  return false;
}

const reverse = (d: Direction): Direction => (d === 'out' ? 'in' : d === 'in' ? 'out' : 'both');

function slots(pattern: PatternPart): { pattern: PatternPart; slots: PartSlots } {
  return {
    pattern,
    slots: {
      nodes: pattern.nodes.map((n) => ({ name: n.variable ?? internal('n'), pattern: n })),
      rels: pattern.rels.map((r) => ({ name: r.variable ?? internal('r'), pattern: r })),
    },
  };
}
