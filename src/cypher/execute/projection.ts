import type { Expr, Projection } from '../model/ast.js';
import { runtimeError, semanticError } from '../errors.js';
import { NeedData } from '../graph/graph.js';
import { accumulator, type Accumulator } from './aggregate.js';
import { extend, PAUSE, Signal, type ExecContext, type Row, type Stream } from './context.js';
import { AGGREGATES, evaluate, hasAggregate } from './eval.js';
import { directChildren } from '../plan/expressions.js';
import { keyOf, NodeV, orderCompare, type Value } from './values.js';

/**
 * WITH and RETURN: projection, grouping with aggregates, DISTINCT, ORDER BY, SKIP and LIMIT. Without ORDER BY or
 * aggregation rows stream through, so `RETURN n LIMIT 10` stops the match after ten rows.
 */

/** Variables a query writes (internal slots start with a space and never reach a projection). */
export const isUserVariable = (name: string) => !name.startsWith(' ');

/** The columns a projection produces for rows whose variables are `scope`. */
export function columnsOf(p: Projection, scope: readonly string[]): string[] {
  const star = p.star ? scope.filter(isUserVariable).sort() : [];
  return [...star, ...p.items.map((i) => i.name).filter((n) => !star.includes(n))];
}

/** Evaluates, waiting (by yielding) for data the graph still loads. */
export function* evalWaiting(e: Expr, row: Row, ctx: ExecContext): Generator<Signal, Value, void> {
  for (;;) {
    try {
      return evaluate(e, row, ctx);
    } catch (err) {
      if (!(err instanceof NeedData)) throw err;
      yield new Signal(err.ready);
    }
  }
}

/** Not evaluated yet: the graph still loads data the expression reads (see `evalNow`). */
export const PENDING: unique symbol = Symbol('pending');

/**
 * Evaluates without a generator (one a row costs more than most expressions): PENDING when data is still loading,
 * for the caller to evaluate again through `evalWaiting`.
 */
export function evalNow(e: Expr, row: Row, ctx: ExecContext): Value | typeof PENDING {
  try {
    return evaluate(e, row, ctx);
  } catch (err) {
    if (err instanceof NeedData) return PENDING;
    throw err;
  }
}

const same = (a: Expr, b: Expr) => JSON.stringify(a) === JSON.stringify(b);

/** `e` with every sub-expression equal to a projected item's expression read from that column instead. */
function overColumns(e: Expr, items: { expr: Expr; name: string }[]): Expr {
  const hit = items.find((i) => same(i.expr, e));
  if (hit) return { kind: 'var', name: hit.name };
  if (e.kind === 'var' || e.kind === 'lit' || e.kind === 'param') return e;
  return mapChildren(e, (c) => overColumns(c, items));
}

/** A copy of `e` with its direct sub-expressions replaced. */
function mapChildren(e: Expr, f: (c: Expr) => Expr): Expr {
  const kids = directChildren(e);
  if (!kids.length) return e;
  const replaced = new Map(kids.map((k) => [k, f(k)]));
  const copy = (x: unknown): unknown => {
    if (replaced.has(x as Expr)) return replaced.get(x as Expr);
    if (Array.isArray(x)) return x.map(copy);
    if (x && typeof x === 'object' && x.constructor === Object) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(x)) out[k] = copy(v);
      return out;
    }
    return x;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) out[k] = copy(v);
  return out as Expr;
}

interface AggregateSlot {
  name: string;
  fn: string;
  distinct: boolean;
  arg: Expr | null;
  extra: Expr[];
}

/** Replaces the aggregate calls in `e` by reads of slots (` agg0`, …) the grouping fills. */
function extractAggregates(e: Expr, slots: AggregateSlot[]): Expr {
  if (e.kind === 'countStar' || (e.kind === 'call' && AGGREGATES.has(e.name))) {
    const slot: AggregateSlot =
      e.kind === 'countStar'
        ? { name: ` agg${slots.length}`, fn: 'countstar', distinct: false, arg: null, extra: [] }
        : { name: ` agg${slots.length}`, fn: e.name, distinct: e.distinct, arg: e.args[0] ?? null, extra: e.args.slice(1) };
    if (slot.arg && hasAggregate(slot.arg)) {
      throw semanticError('NestedAggregation', "Can't use aggregate functions inside of aggregate functions.");
    }
    slots.push(slot);
    return { kind: 'var', name: slot.name };
  }
  return mapChildren(e, (c) => extractAggregates(c, slots));
}

/** A non-negative integer for SKIP or LIMIT, from an expression of literals and parameters. */
function count(e: Expr | null, what: string, ctx: ExecContext): number | undefined {
  if (!e) return undefined;
  const v = evaluate(e, {}, ctx);
  if (typeof v !== 'number') {
    throw runtimeError('ArgumentError', 'InvalidArgumentType', `${what} must be an integer, got ${v === null ? 'null' : String(v)}`);
  }
  if (v < 0) throw runtimeError('ArgumentError', 'NegativeIntegerArgument', `${what} must be a non-negative integer, got ${v}`);
  return v;
}

export function* project(input: Stream, p: Projection, scope: readonly string[], ctx: ExecContext): Stream {
  const columns = columnsOf(p, scope);
  const starNames = p.star ? scope.filter(isUserVariable) : [];
  const skip = count(p.skip, 'SKIP', ctx) ?? 0;
  const limit = count(p.limit, 'LIMIT', ctx);
  if (limit === 0) return;
  const aggregating = p.items.some((i) => hasAggregate(i.expr));
  const rows = aggregating ? grouped(input, p, starNames, ctx) : projected(input, p, starNames, ctx);
  const ordered = p.order.length ? sorted(rows, p, columns, aggregating || p.distinct, ctx) : rows;
  const distinct = p.distinct && !p.order.length ? unique(ordered, columns, ctx) : ordered;
  let skipped = 0;
  let emitted = 0;
  for (const r of distinct) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    if (skipped < skip) {
      skipped++;
      continue;
    }
    yield onlyColumns(r, columns);
    if (limit !== undefined && ++emitted >= limit) return;
  }
}

function onlyColumns(r: Row, columns: string[]): Row {
  const out: Row = {};
  for (const c of columns) out[c] = r[c] ?? null;
  return out;
}

/** Rows with the projected columns added to the incoming variables (ORDER BY may read both). */
function* projected(input: Stream, p: Projection, starNames: string[], ctx: ExecContext): Stream {
  for (const r of input) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    const out: Row = extend(r);
    for (const n of starNames) out[n] = r[n]!;
    for (const item of p.items) {
      const v = evalNow(item.expr, r, ctx);
      out[item.name] = v === PENDING ? yield* evalWaiting(item.expr, r, ctx) : v;
    }
    yield out;
  }
}

function* grouped(input: Stream, p: Projection, starNames: string[], ctx: ExecContext): Stream {
  const slots: AggregateSlot[] = [];
  const keys = [
    ...starNames.map((n) => ({ name: n, expr: { kind: 'var', name: n } as Expr })),
    ...p.items.filter((i) => !hasAggregate(i.expr)),
  ];
  const aggregated = p.items.filter((i) => hasAggregate(i.expr)).map((i) => ({ name: i.name, expr: extractAggregates(i.expr, slots) }));
  const groups = new Map<string | number, { row: Row; accs: Accumulator[] }>();
  for (const r of input) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    ctx.budget.step();
    const keyValues: Value[] = [];
    for (const k of keys) {
      const v = evalNow(k.expr, r, ctx);
      keyValues.push(v === PENDING ? yield* evalWaiting(k.expr, r, ctx) : v);
    }
    // One node to group by (`WITH n, collect(…)` over a scan) is keyed by its id: no string a row.
    const only = keyValues.length === 1 ? keyValues[0]! : undefined;
    const key = only instanceof NodeV ? only.id : only !== undefined ? keyOf(only) : keyValues.map(keyOf).join('\u0000');
    let g = groups.get(key);
    if (!g) {
      const row: Row = extend(r);
      keys.forEach((k, i) => (row[k.name] = keyValues[i]!));
      const accs: Accumulator[] = [];
      for (const s of slots) {
        const extra: Value[] = [];
        for (const x of s.extra) extra.push(yield* evalWaiting(x, r, ctx));
        accs.push(accumulator(s.fn, s.distinct, extra));
      }
      g = { row, accs };
      groups.set(key, g);
      ctx.budget.hold(keys.length + slots.length);
    }
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      let v = s.arg ? evalNow(s.arg, r, ctx) : true;
      if (v === PENDING) v = yield* evalWaiting(s.arg!, r, ctx);
      g.accs[i]!.add(v);
      // What collect keeps counts against the budget, a list by its length.
      if (s.fn === 'collect') ctx.budget.hold(Array.isArray(v) ? 1 + v.length : 1);
    }
  }
  // No rows and nothing to group by: one row of empty aggregates (count 0, collect []).
  if (!groups.size && !keys.length)
    groups.set('', {
      row: {},
      accs: slots.map((s) =>
        accumulator(
          s.fn,
          s.distinct,
          s.extra.map((x) => evaluate(x, {}, ctx)),
        ),
      ),
    });
  for (const g of groups.values()) {
    if (ctx.budget.pauseDue) yield PAUSE;
    const row: Row = extend(g.row);
    slots.forEach((s, i) => (row[s.name] = g.accs[i]!.result()));
    for (const a of aggregated) row[a.name] = yield* evalWaiting(a.expr, row, ctx);
    yield row;
  }
}

function* sorted(input: Stream, p: Projection, columns: string[], projectedOnly: boolean, ctx: ExecContext): Stream {
  const items = p.items.map((i) => ({ expr: i.expr, name: i.name }));
  const order = p.order.map((o) => ({ expr: overColumns(o.expr, items), descending: o.descending }));
  const buffer: { row: Row; keys: Value[] }[] = [];
  const seen = p.distinct ? new Set<string>() : undefined;
  for (const r of input) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    ctx.budget.step();
    if (seen) {
      const k = columns.map((c) => keyOf(r[c] ?? null)).join('\u0000');
      if (seen.has(k)) continue;
      seen.add(k);
    }
    const scope = projectedOnly ? onlyColumns(r, columns) : r;
    const keys: Value[] = [];
    for (const o of order) {
      const v = evalNow(o.expr, scope, ctx);
      keys.push(v === PENDING ? yield* evalWaiting(o.expr, scope, ctx) : v);
    }
    buffer.push({ row: r, keys });
    ctx.budget.hold(columns.length + keys.length);
  }
  buffer.sort((a, b) => {
    for (let i = 0; i < order.length; i++) {
      const c = orderCompare(a.keys[i]!, b.keys[i]!);
      if (c) return order[i]!.descending ? -c : c;
    }
    return 0;
  });
  for (const b of buffer) {
    if (ctx.budget.pauseDue) yield PAUSE;
    yield b.row;
  }
}

function* unique(input: Stream, columns: string[], ctx: ExecContext): Stream {
  const seen = new Set<string>();
  for (const r of input) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    const k = columns.map((c) => keyOf(r[c] ?? null)).join('\u0000');
    if (seen.has(k)) continue;
    seen.add(k);
    ctx.budget.hold(1);
    yield r;
  }
}
