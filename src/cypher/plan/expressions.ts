import type { Expr, PatternPart } from '../model/ast.js';

/** What the planner and the analyzer read off expressions. */

/** `a AND b AND c` → [a, b, c]. */
export function conjuncts(e: Expr): Expr[] {
  if (e.kind === 'binary' && e.op === 'and') return [...conjuncts(e.left), ...conjuncts(e.right)];
  return [e];
}

/** The variables an expression reads from its row (not those it binds itself: comprehension and reduce variables). */
export function freeVariables(e: Expr, out = new Set<string>()): Set<string> {
  const inner = (x: Expr, local: string[]) => {
    const s = freeVariables(x);
    for (const l of local) s.delete(l);
    for (const v of s) out.add(v);
  };
  switch (e.kind) {
    case 'var':
      out.add(e.name);
      break;
    case 'mapProjection':
      out.add(e.variable);
      for (const i of e.items) {
        if (i.kind === 'entry') freeVariables(i.expr, out);
        if (i.kind === 'variable') out.add(i.name);
      }
      break;
    case 'listComp':
      freeVariables(e.list, out);
      if (e.where) inner(e.where, [e.variable]);
      if (e.map) inner(e.map, [e.variable]);
      break;
    case 'quantifier':
      freeVariables(e.list, out);
      if (e.where) inner(e.where, [e.variable]);
      break;
    case 'reduce':
      freeVariables(e.init, out);
      freeVariables(e.list, out);
      inner(e.expr, [e.acc, e.variable]);
      break;
    case 'pattern':
      patternVariables(e.pattern, out);
      break;
    case 'patternComp': {
      const local = new Set<string>();
      patternVariables(e.pattern, local);
      for (const v of local) out.add(v);
      if (e.where) freeVariables(e.where, out);
      freeVariables(e.map, out);
      break;
    }
    case 'exists':
    case 'countSubquery':
      for (const p of e.patterns) patternVariables(p, out);
      if (e.where) freeVariables(e.where, out);
      break;
    default:
      for (const c of directChildren(e)) freeVariables(c, out);
  }
  return out;
}

/** The variables a pattern names, and those its inline maps and WHERE read. */
export function patternVariables(p: PatternPart, out: Set<string>): Set<string> {
  if (p.pathVariable) out.add(p.pathVariable);
  for (const n of p.nodes) {
    if (n.variable) out.add(n.variable);
    if (n.properties) freeVariables(n.properties, out);
    if (n.where) freeVariables(n.where, out);
  }
  for (const r of p.rels) {
    if (r.variable) out.add(r.variable);
    if (r.properties) freeVariables(r.properties, out);
    if (r.where) freeVariables(r.where, out);
  }
  return out;
}

/** Whether an expression holds a pattern or a subquery (these run after the whole MATCH is bound). */
export function hasSubpattern(e: Expr): boolean {
  if (e.kind === 'pattern' || e.kind === 'patternComp' || e.kind === 'exists' || e.kind === 'countSubquery') return true;
  return directChildren(e).some(hasSubpattern);
}

/** Sub-expressions, scoped ones included (the walkers above handle scope). */
export function directChildren(e: Expr): Expr[] {
  switch (e.kind) {
    case 'prop':
      return [e.target];
    case 'index':
      return [e.target, e.index];
    case 'slice':
      return [e.target, ...(e.from ? [e.from] : []), ...(e.to ? [e.to] : [])];
    case 'list':
      return e.items;
    case 'map':
      return e.entries.map(([, v]) => v);
    case 'not':
    case 'neg':
    case 'isNull':
    case 'hasLabels':
      return [e.arg];
    case 'binary':
      return [e.left, e.right];
    case 'call':
      return e.args;
    case 'case':
      return [...(e.subject ? [e.subject] : []), ...e.whens.flatMap((w) => [w.when, w.then]), ...(e.otherwise ? [e.otherwise] : [])];
    case 'listComp':
      return [e.list, ...(e.where ? [e.where] : []), ...(e.map ? [e.map] : [])];
    case 'quantifier':
      return [e.list, ...(e.where ? [e.where] : [])];
    case 'reduce':
      return [e.init, e.list, e.expr];
    case 'mapProjection':
      return e.items.flatMap((i) => (i.kind === 'entry' ? [i.expr] : []));
    case 'patternComp':
      return [...(e.where ? [e.where] : []), e.map];
    case 'exists':
    case 'countSubquery':
      return e.where ? [e.where] : [];
    default:
      return [];
  }
}
