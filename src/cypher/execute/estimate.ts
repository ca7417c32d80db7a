import type { Expr } from '../model/ast.js';
import type { NodeSlot } from '../plan/plan.js';
import { freeVariables } from '../plan/expressions.js';
import type { ExecContext, Row } from './context.js';
import { evaluate, labelMatch } from './eval.js';
import { equals, isMap, nodeV } from './values.js';

/** Candidates a selectivity estimate evaluates at most (evenly spread over the label's nodes). */
const SAMPLE = 512;
/** The share assumed when no sampled candidate passes: rare, yet not known to be none. */
const NONE_SEEN = 0.25;

/**
 * The share of a node pattern's candidates (its rarest label's nodes, or all) that pass its own checks and
 * `filters`, from an even sample: the planner's guess of how selective a WHERE is. Exact for small labels.
 * undefined when a check cannot run yet (a property column still loading, a type error): the plan then goes by
 * label counts alone.
 */
export function selectivity(node: NodeSlot, filters: Expr[], ctx: ExecContext): number | undefined {
  const p = node.pattern;
  const g = ctx.graph;
  const props = p.properties && freeVariables(p.properties).size === 0 ? p.properties : null;
  const where = p.where && p.variable && [...freeVariables(p.where)].every((v) => v === p.variable) ? p.where : null;
  if (!props && !where && !filters.length) return undefined;
  const labels = p.labels;
  const names =
    labels?.kind === 'name'
      ? [labels.name]
      : labels?.kind === 'and'
        ? labels.items.flatMap((l) => (l.kind === 'name' ? [l.name] : []))
        : [];
  const rarest = names.length ? names.reduce((a, b) => (g.labelCount(a) <= g.labelCount(b) ? a : b)) : null;
  const total = rarest ? g.labelCount(rarest) : g.nodeCount();
  if (total === 0) return 1;
  const sample = sampled(rarest ? g.nodesWithLabel(rarest) : g.nodes(), total);
  try {
    const wanted = props ? evaluate(props, {}, ctx) : null;
    if (props && !isMap(wanted)) return undefined;
    let passed = 0;
    for (const id of sample) {
      if (labels && !labelMatch(labels, (l) => g.hasLabel(id, l))) continue;
      if (wanted && isMap(wanted) && !Object.entries(wanted).every(([k, v]) => equals(g.nodeProperty(id, k), v) === true)) continue;
      const row: Row = { [node.name]: nodeV(id) };
      if (where && evaluate(where, { [p.variable!]: nodeV(id) }, ctx) !== true) continue;
      if (filters.every((f) => evaluate(f, row, ctx) === true)) passed++;
    }
    ctx.budget.step(sample.length);
    if (passed === 0) return sample.length >= total ? 0 : NONE_SEEN / sample.length;
    return passed / sample.length;
  } catch {
    return undefined;
  }
}

function sampled(ids: Iterable<number>, total: number): number[] {
  const out: number[] = [];
  if (total <= SAMPLE) {
    for (const id of ids) out.push(id);
    return out;
  }
  const list = ids as unknown as ArrayLike<number>;
  if (typeof list.length === 'number') {
    const stride = list.length / SAMPLE;
    for (let i = 0; i < SAMPLE; i++) out.push(list[Math.floor(i * stride)]!);
    return out;
  }
  for (const id of ids) {
    out.push(id);
    if (out.length >= SAMPLE) break;
  }
  return out;
}
