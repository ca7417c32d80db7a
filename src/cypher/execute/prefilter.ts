import type { Expr } from '../model/ast.js';
import type { CypherGraph } from '../graph/graph.js';
import type { MatchPlan, Step } from '../plan/plan.js';

/** True when the filters after an expansion would certainly reject the relationship `rel` from `from` to `other`. */
export type EdgeRejecter = (from: number, other: number, rel: number) => boolean;

const made = new WeakMap<object, EdgeRejecter | null>();

/**
 * The filters that follow an expansion step, as far as they can be decided from facts the graph holds for every
 * element (`domainNumber`, `carriedRelProperty`): `a.domainsid <> b.domainsid`, `r.isacl`. A scan over every edge
 * (ACEs across trusts) then rejects most relationships before any value or row is built for them. Only the leading
 * filters are taken, up to the first that cannot be decided so: the matcher runs them in order and stops at the
 * first that fails, so a relationship skipped here is one it would have dropped without running a later one. When
 * a fact is unknown for an element (-1, undefined) the relationship is kept and the filters run on it as usual.
 */
export function edgeRejecter(plan: MatchPlan, i: number, step: Extract<Step, { kind: 'expand' }>, graph: CypherGraph): EdgeRejecter | null {
  const cached = made.get(step);
  if (cached !== undefined) return cached;
  const checks: EdgeRejecter[] = [];
  for (let j = i + 1; j < plan.steps.length; j++) {
    const f = plan.steps[j]!;
    if (f.kind !== 'filter') break;
    const check = compile(f.expr, step.from.name, step.to.name, step.rel.name, graph);
    if (!check) break;
    checks.push(check);
  }
  const out: EdgeRejecter | null = !checks.length
    ? null
    : checks.length === 1
      ? checks[0]!
      : (from, other, rel) => checks.some((c) => c(from, other, rel));
  made.set(step, out);
  return out;
}

function compile(e: Expr, from: string, to: string, rel: string, graph: CypherGraph): EdgeRejecter | null {
  const carried = graph.carriedRelProperty?.bind(graph);
  if (e.kind === 'prop' && e.target.kind === 'var' && e.target.name === rel && carried) {
    const key = e.key;
    // WHERE r.isacl: false and null reject; another type is left to the evaluation (a TypeError there).
    return (_f, _o, r) => {
      const v = carried(r, key);
      return v === false || v === null;
    };
  }
  const domain = graph.domainNumber?.bind(graph);
  if (e.kind === 'binary' && (e.op === '=' || e.op === '<>') && domain) {
    const side = (x: Expr) =>
      x.kind === 'prop' && x.key === 'domainsid' && x.target.kind === 'var' && (x.target.name === from || x.target.name === to)
        ? x.target.name === from
        : undefined;
    const left = side(e.left);
    const right = side(e.right);
    if (left === undefined || right === undefined) return null;
    const equal = e.op === '=';
    return (f, o) => {
      const a = domain(left ? f : o);
      const b = domain(right ? f : o);
      // Both strings: the comparison is decided (equal numbers for equal strings); else it is evaluated.
      return a >= 0 && b >= 0 && (a === b) !== equal;
    };
  }
  return null;
}
