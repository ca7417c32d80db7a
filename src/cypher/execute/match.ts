import type { Expr, NodePattern, RelPattern } from '../model/ast.js';
import { runtimeError } from '../errors.js';
import { NeedData, type Step as GraphStep } from '../graph/graph.js';
import type { MatchPlan, PartSlots, RelSlot, Step } from '../plan/plan.js';
import { extend, PAUSE, Signal, type ExecContext, type Row, type Stream } from './context.js';
import { evaluate, labelMatch } from './eval.js';
import { edgeRejecter } from './prefilter.js';
import { shortestSearch } from './shortest.js';
import { equals, isMap, NodeV, nodeV, PathV, RelV, type Value } from './values.js';

/**
 * Runs a MATCH plan for one incoming row: every way to bind the plan's slots, each as a row. Relationships are
 * unique within the MATCH (Neo4j's relationship isomorphism): a relationship bound once is not bound again, in the
 * same path or in another part of the pattern.
 */
export function runMatch(plan: MatchPlan, row: Row, ctx: ExecContext): Stream {
  return stepAt(plan, 0, row, [], ctx);
}

/** Evaluates, turning a read of data still to load into the NeedData to wait for. */
function attempt(fn: () => Value): Value | NeedData {
  try {
    return fn();
  } catch (e) {
    if (e instanceof NeedData) return e;
    throw e;
  }
}

/** Evaluates an expression in the matcher, waiting (by yielding) for data it needs. */
function* value(e: Expr, row: Row, ctx: ExecContext): Generator<Signal, Value, void> {
  for (;;) {
    const v = attempt(() => evaluate(e, row, ctx));
    if (!(v instanceof NeedData)) return v;
    yield new Signal(v.ready);
  }
}

function* checked(fn: () => Value): Generator<Signal, Value, void> {
  for (;;) {
    const v = attempt(fn);
    if (!(v instanceof NeedData)) return v;
    yield new Signal(v.ready);
  }
}

/**
 * The stream of step `i` on: a plain function handing back the step's own generator, so a row passes one
 * generator per step on its way up rather than two (a scan sends millions of rows through them).
 */
function stepAt(plan: MatchPlan, i: number, row: Row, used: number[], ctx: ExecContext): Stream {
  if (i === plan.steps.length) return one(row, ctx);
  const step = plan.steps[i]!;
  switch (step.kind) {
    case 'filter':
      return filterStep(plan, i, step.expr, row, used, ctx);
    case 'node':
      return bindNode(plan, i, step, row, used, ctx);
    case 'expand':
      return step.rel.pattern.range ? varExpand(plan, i, step, row, used, ctx) : expand(plan, i, step, row, used, ctx);
    case 'shortest':
      return shortest(plan, i, step, row, used, ctx);
    case 'path':
      return stepAt(plan, i + 1, extend(row, step.name, buildPath(step.part, row)), used, ctx);
  }
}

function* one(row: Row, ctx: ExecContext): Stream {
  if (ctx.budget.pauseDue) yield PAUSE;
  yield row;
}

function* filterStep(plan: MatchPlan, i: number, expr: Expr, row: Row, used: number[], ctx: ExecContext): Stream {
  if (ctx.budget.pauseDue) yield PAUSE;
  if ((yield* value(expr, row, ctx)) === true) yield* stepAt(plan, i + 1, row, used, ctx);
}

function* bindNode(plan: MatchPlan, i: number, step: Extract<Step, { kind: 'node' }>, row: Row, used: number[], ctx: ExecContext): Stream {
  const name = step.node.name;
  const bound = row[name];
  if (bound !== undefined) {
    if (bound === null) return;
    if (!(bound instanceof NodeV)) throw runtimeError('TypeError', 'VariableTypeConflict', `Variable \`${name}\` is not a node`);
    if (yield* nodeMatches(step.node.pattern, bound.id, row, ctx)) yield* stepAt(plan, i + 1, row, used, ctx);
    return;
  }
  const plain = plainNode(step.node.pattern);
  const scratch = extend(row);
  for (const id of yield* candidates(step, row, ctx)) {
    ctx.budget.step();
    if (ctx.budget.pauseDue) yield PAUSE;
    if (plain ? !labelsMatch(step.node.pattern, id, ctx) : !(yield* nodeMatches(step.node.pattern, id, row, ctx))) continue;
    // As in `expand`: filters on a scratch row, a row of its own only for a node that passes.
    scratch[name] = nodeV(id);
    const j = passFilters(plan, i + 1, scratch, ctx);
    if (j < 0) continue;
    const next = extend(scratch);
    if (j === plan.steps.length) yield next;
    else yield* stepAt(plan, j, next, used, ctx);
  }
}

/**
 * The filter steps from `i` on, run at once on a row just bound (most rows of a scan fail one): the index of the
 * next step to run, -1 when a filter rejects the row. A filter whose data is still loading is left to `stepAt`,
 * which waits for it.
 */
function passFilters(plan: MatchPlan, i: number, row: Row, ctx: ExecContext): number {
  const steps = plan.steps;
  for (; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.kind !== 'filter') return i;
    let v: Value;
    try {
      v = evaluate(step.expr, row, ctx);
    } catch (e) {
      if (e instanceof NeedData) return i;
      throw e;
    }
    if (v !== true) return -1;
  }
  return i;
}

/** A node pattern checked by its labels alone (no inline map, no inline WHERE). */
const plainNode = (p: NodePattern) => !p.properties && !(p.where && p.variable);

function labelsMatch(p: NodePattern, id: number, ctx: ExecContext): boolean {
  if (!p.labels) return true;
  if (p.labels.kind === 'name') return ctx.graph.hasLabel(id, p.labels.name);
  return labelMatch(p.labels, (l) => ctx.graph.hasLabel(id, l));
}

/** A relationship pattern checked by its types alone. */
const plainRel = (p: RelPattern) => !p.properties && !(p.where && p.variable && !p.range);

/** The nodes a scan starts from: a look-up when the graph has one, else a label's nodes, else all. */
function* candidates(step: Extract<Step, { kind: 'node' }>, row: Row, ctx: ExecContext): Generator<Signal, Iterable<number>, void> {
  const g = ctx.graph;
  if (step.lookup && g.nodesByProperty) {
    const v = yield* value(step.lookup.value, row, ctx);
    const found = yield* checked(() => g.nodesByProperty!(step.lookup!.key, v) as unknown as Value);
    if (found !== undefined) return found as unknown as number[];
  }
  const labels = step.node.pattern.labels;
  if (labels?.kind === 'name') return g.nodesWithLabel(labels.name);
  if (labels?.kind === 'and') {
    const names = labels.items.filter((l) => l.kind === 'name').map((l) => (l as { name: string }).name);
    if (names.length) {
      const rarest = names.reduce((a, b) => (g.labelCount(a) <= g.labelCount(b) ? a : b));
      return g.nodesWithLabel(rarest);
    }
  }
  return g.nodes();
}

function* nodeMatches(p: NodePattern, id: number, row: Row, ctx: ExecContext): Generator<Signal, boolean, void> {
  if (p.labels && !labelMatch(p.labels, (l) => ctx.graph.hasLabel(id, l))) return false;
  if (p.properties && !(yield* propertiesMatch(p.properties, row, ctx, (k) => ctx.graph.nodeProperty(id, k)))) return false;
  if (p.where && p.variable) {
    const inner = row[p.variable] === undefined ? extend(row, p.variable, nodeV(id)) : row;
    if ((yield* value(p.where, inner, ctx)) !== true) return false;
  }
  return true;
}

/** An inline map: every entry must equal the element's property (a null entry matches nothing). */
function* propertiesMatch(props: Expr, row: Row, ctx: ExecContext, get: (key: string) => Value): Generator<Signal, boolean, void> {
  const wanted = yield* value(props, row, ctx);
  if (wanted === null) return false;
  if (!isMap(wanted)) throw runtimeError('TypeError', 'InvalidArgumentType', 'Property maps in patterns must be maps');
  for (const [k, v] of Object.entries(wanted)) {
    const actual = yield* checked(() => get(k));
    if (equals(actual, v) !== true) return false;
  }
  return true;
}

function* relMatches(p: RelPattern, rel: RelV, row: Row, ctx: ExecContext): Generator<Signal, boolean, void> {
  if (p.properties && !(yield* propertiesMatch(p.properties, row, ctx, (k) => ctx.graph.relProperty(rel, k)))) return false;
  if (p.where && p.variable && !p.range) {
    if ((yield* value(p.where, extend(row, p.variable, rel), ctx)) !== true) return false;
  }
  return true;
}

const types = (r: RelSlot) => (r.pattern.types.length ? r.pattern.types : null);

function* expand(plan: MatchPlan, i: number, step: Extract<Step, { kind: 'expand' }>, row: Row, used: number[], ctx: ExecContext): Stream {
  const from = row[step.from.name];
  if (!(from instanceof NodeV)) return;
  const boundRel = row[step.rel.name];
  const target = row[step.to.name];
  const plainTo = plainNode(step.to.pattern);
  const plainR = plainRel(step.rel.pattern);
  const scratch = extend(row);
  const rejects = edgeRejecter(plan, i, step, ctx.graph);
  const fromId = from.id;
  const skip = rejects ? (other: number, rel: number) => rejects(fromId, other, rel) : undefined;
  for (const s of ctx.graph.expand(from.id, step.direction, types(step.rel), skip) as Iterable<GraphStep>) {
    ctx.budget.step();
    if (ctx.budget.pauseDue) yield PAUSE;
    if (used.includes(s.rel.id)) continue;
    if (boundRel !== undefined && !(boundRel instanceof RelV && boundRel.id === s.rel.id)) continue;
    if (target !== undefined && !(target instanceof NodeV && target.id === s.other)) continue;
    if (!plainR && !(yield* relMatches(step.rel.pattern, s.rel, row, ctx))) continue;
    if (target === undefined) {
      if (plainTo ? !labelsMatch(step.to.pattern, s.other, ctx) : !(yield* nodeMatches(step.to.pattern, s.other, row, ctx))) continue;
    }
    // The filters run on one scratch row; only a relationship that passes them gets a row of its own (a scan over
    // every edge rejects most, and a row copy each was most of its cost).
    scratch[step.rel.name] = s.rel;
    if (target === undefined) scratch[step.to.name] = nodeV(s.other);
    const j = passFilters(plan, i + 1, scratch, ctx);
    if (j < 0) continue;
    const next = extend(scratch);
    if (j === plan.steps.length) {
      yield next;
      continue;
    }
    used.push(s.rel.id);
    yield* stepAt(plan, j, next, used, ctx);
    used.pop();
  }
}

/**
 * `-[*m..n]->`: every path of m to n hops from the bound node, depth first with an explicit stack (a generator can
 * pause anywhere in it), no relationship twice. The relationship variable is bound to the list of relationships.
 */
function* varExpand(
  plan: MatchPlan,
  i: number,
  step: Extract<Step, { kind: 'expand' }>,
  row: Row,
  used: number[],
  ctx: ExecContext,
): Stream {
  const from = row[step.from.name];
  if (!(from instanceof NodeV)) return;
  const range = step.rel.pattern.range!;
  const max = range.max ?? ctx.budget.limits.maxUnboundedHops;
  const target = row[step.to.name];
  const boundRels = row[step.rel.name];
  const relTypes = types(step.rel);
  // Walking backwards (the plan started at the pattern's far end), the list is turned into the pattern's order.
  const backwards = step.backwards;
  const path: RelV[] = [];
  const stack: { node: number; iter: Iterator<GraphStep> }[] = [];
  const plainTo = plainNode(step.to.pattern);
  const plainR = plainRel(step.rel.pattern);
  // An anonymous relationship no later step reads (no path built, not bound, no inline WHERE) needs no list a path:
  // `MATCH (n)-[:MemberOf*0..]->(m)` meets a great many.
  const listed =
    !step.rel.name.startsWith(' ') || boundRels !== undefined || !!step.rel.pattern.where || plan.steps.some((s) => s.kind === 'path');
  /** The checks of an end that need no generator: most paths of a walk end at a node of another label. */
  const endOk = (node: number) =>
    target !== undefined ? target instanceof NodeV && target.id === node : !plainTo || labelsMatch(step.to.pattern, node, ctx);
  const emit = function* (node: number): Stream {
    if (target === undefined && !plainTo && !(yield* nodeMatches(step.to.pattern, node, row, ctx))) return;
    const rels = listed ? (backwards ? [...path].reverse() : [...path]) : NO_LIST;
    if (boundRels !== undefined && !(Array.isArray(boundRels) && sameRels(boundRels, rels))) return;
    if (step.rel.pattern.where && step.rel.pattern.variable) {
      if ((yield* value(step.rel.pattern.where, extend(row, step.rel.pattern.variable, rels), ctx)) !== true) return;
    }
    const next = extend(row, step.rel.name, rels);
    if (target === undefined) next[step.to.name] = nodeV(node);
    const n = used.length;
    for (const r of path) used.push(r.id);
    yield* stepAt(plan, i + 1, next, used, ctx);
    used.length = n;
  };
  if (range.min === 0 && endOk(from.id)) yield* emit(from.id);
  if (max < 1) return;
  stack.push({ node: from.id, iter: ctx.graph.expand(from.id, step.direction, relTypes)[Symbol.iterator]() });
  while (stack.length) {
    ctx.budget.step();
    if (ctx.budget.pauseDue) yield PAUSE;
    const top = stack[stack.length - 1]!;
    const n = top.iter.next();
    if (n.done) {
      stack.pop();
      path.pop();
      continue;
    }
    const s = n.value;
    if (used.includes(s.rel.id) || path.some((r) => r.id === s.rel.id)) continue;
    if (!plainR && !(yield* relMatches(step.rel.pattern, s.rel, row, ctx))) continue;
    path.push(s.rel);
    if (path.length >= range.min && endOk(s.other)) yield* emit(s.other);
    if (path.length < max) stack.push({ node: s.other, iter: ctx.graph.expand(s.other, step.direction, relTypes)[Symbol.iterator]() });
    else path.pop();
  }
}

/** What an internal relationship slot holds when nothing reads its list. */
const NO_LIST: RelV[] = [];

function sameRels(a: Value[], b: RelV[]): boolean {
  return a.length === b.length && a.every((r, i) => r instanceof RelV && r.id === b[i]!.id);
}

function* shortest(
  plan: MatchPlan,
  i: number,
  step: Extract<Step, { kind: 'shortest' }>,
  row: Row,
  used: number[],
  ctx: ExecContext,
): Stream {
  const from = row[step.from.name];
  if (!(from instanceof NodeV)) return;
  const rel = step.part.rels[0]!;
  const range = rel.pattern.range ?? { min: 1, max: 1 };
  const target = row[step.to.name];
  if (target === null) return;
  const backwards = step.direction !== rel.pattern.direction || step.from !== step.part.nodes[0];
  const found = yield* shortestSearch(ctx, {
    source: from.id,
    target: target instanceof NodeV ? target.id : undefined,
    direction: step.direction,
    types: types(rel),
    maxDepth: range.max ?? ctx.budget.limits.maxUnboundedHops,
    minDepth: range.min,
    all: step.all,
    accept: (node) => nodeMatchesSync(step.to.pattern, node, row, ctx) && filtersPass(step.toFilters, step.to.name, node, row, ctx),
    relOk: (r) => !used.includes(r.id) && relMatchesSync(rel.pattern, r, row, ctx),
    plainRels: !rel.pattern.properties && !rel.pattern.where && used.length === 0,
  });
  for (const f of found) {
    ctx.budget.step();
    if (ctx.budget.pauseDue) yield PAUSE;
    const rels = backwards ? [...f.rels].reverse() : f.rels;
    const next: Row = extend(row, rel.name, rel.pattern.range ? rels : rels[0]!);
    if (target === undefined) next[step.to.name] = nodeV(f.end);
    yield* stepAt(plan, i + 1, next, used, ctx);
  }
}

/** WHERE parts on a shortest path's far end, for one candidate end (data still to load throws NeedData). */
function filtersPass(filters: Expr[], name: string, node: number, row: Row, ctx: ExecContext): boolean {
  if (!filters.length) return true;
  const inner = extend(row, name, nodeV(node));
  for (const f of filters) if (evaluate(f, inner, ctx) !== true) return false;
  return true;
}

/** The synchronous checks of a search's callbacks: data still to load is waited for by the search itself. */
function nodeMatchesSync(p: NodePattern, id: number, row: Row, ctx: ExecContext): boolean {
  return runSync(nodeMatches(p, id, row, ctx));
}

function relMatchesSync(p: RelPattern, rel: RelV, row: Row, ctx: ExecContext): boolean {
  return runSync(relMatches(p, rel, row, ctx));
}

function runSync(g: Generator<Signal, boolean, void>): boolean {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
    if (r.value.wait) throw new NeedData(r.value.wait);
  }
}

/** The path a part of the pattern matched, in the pattern's order. */
function buildPath(part: PartSlots, row: Row): Value {
  const first = row[part.nodes[0]!.name];
  if (!(first instanceof NodeV)) return null;
  const nodes: NodeV[] = [first];
  const rels: RelV[] = [];
  let at = first.id;
  for (const slot of part.rels) {
    const bound = row[slot.name];
    const list = Array.isArray(bound) ? (bound as RelV[]) : bound instanceof RelV ? [bound] : [];
    for (const r of list) {
      rels.push(r);
      at = r.start === at ? r.end : r.start;
      nodes.push(nodeV(at));
    }
  }
  return new PathV(nodes, rels);
}
