import type { Expr, LabelExpr, MapProjectionItem, PatternPart } from '../model/ast.js';
import { runtimeError } from '../errors.js';
import { NeedData } from '../graph/graph.js';
import type { ExecContext, Row, Stream } from './context.js';
import { extend, Signal } from './context.js';
import { callFunction } from './functions.js';
import { directChildren } from '../plan/expressions.js';
import { arithmetic, regexMatch } from './operators.js';
import { DateTimeV, DateV, DurationV } from './temporal.js';
import { compare, equals, isMap, NodeV, RelV, typeName, type MapValue, type Value } from './values.js';

/**
 * Evaluates an expression against a row. Three-valued: comparisons and boolean operators with a null operand give
 * null as Cypher does; a value of the wrong type for an operator is a TypeError.
 */
export function evaluate(e: Expr, row: Row, ctx: ExecContext): Value {
  switch (e.kind) {
    case 'lit':
      return e.value;
    case 'var': {
      const v = row[e.name];
      if (v === undefined) throw runtimeError('SemanticError', 'UndefinedVariable', `Variable \`${e.name}\` not defined`);
      return v;
    }
    case 'param': {
      const v = ctx.params[e.name];
      if (v === undefined) throw runtimeError('ParameterMissing', 'MissingParameter', `Expected parameter: $${e.name}`);
      return v;
    }
    case 'prop':
      return property(evaluate(e.target, row, ctx), e.key, ctx);
    case 'index':
      return index(evaluate(e.target, row, ctx), evaluate(e.index, row, ctx), ctx);
    case 'slice':
      return slice(evaluate(e.target, row, ctx), e.from && evaluate(e.from, row, ctx), e.to && evaluate(e.to, row, ctx));
    case 'list': {
      const out = e.items.map((i) => evaluate(i, row, ctx));
      ctx.budget.step(out.length);
      return out;
    }
    case 'map': {
      const out: MapValue = {};
      for (const [k, v] of e.entries) out[k] = evaluate(v, row, ctx);
      return out;
    }
    case 'not': {
      const v = truth(evaluate(e.arg, row, ctx), 'NOT');
      return v === null ? null : !v;
    }
    case 'neg':
      return arithmetic('-', 0, evaluate(e.arg, row, ctx));
    case 'binary':
      return binary(e, row, ctx);
    case 'isNull': {
      const v = evaluate(e.arg, row, ctx);
      return e.negated ? v !== null : v === null;
    }
    case 'hasLabels': {
      const v = evaluate(e.arg, row, ctx);
      if (v === null) return null;
      if (v instanceof NodeV) return labelMatch(e.labels, (l) => ctx.graph.hasLabel(v.id, l));
      if (v instanceof RelV) return labelMatch(e.labels, (l) => v.type === l);
      throw runtimeError('TypeError', 'InvalidArgumentType', `Expected a node or a relationship for a label test, got ${typeName(v)}`);
    }
    case 'call':
      if (AGGREGATES.has(e.name)) {
        throw runtimeError('SemanticError', 'InvalidAggregation', `Aggregation (${e.name}) is not allowed here.`);
      }
      return callFunction(
        e.name,
        e.args.map((a) => evaluate(a, row, ctx)),
        ctx,
      );
    case 'countStar':
      throw runtimeError('SemanticError', 'InvalidAggregation', 'count(*) is not allowed here.');
    case 'case':
      for (const w of e.whens) if (evaluate(w.when, row, ctx) === true) return evaluate(w.then, row, ctx);
      return e.otherwise ? evaluate(e.otherwise, row, ctx) : null;
    case 'listComp': {
      const list = asList(evaluate(e.list, row, ctx), 'list comprehension');
      if (list === null) return null;
      const out: Value[] = [];
      const inner: Row = extend(row);
      for (const item of list) {
        ctx.budget.step();
        inner[e.variable] = item;
        if (e.where && evaluate(e.where, inner, ctx) !== true) continue;
        out.push(e.map ? evaluate(e.map, inner, ctx) : item);
      }
      return out;
    }
    case 'quantifier':
      return quantifier(e, row, ctx);
    case 'reduce': {
      const list = asList(evaluate(e.list, row, ctx), 'reduce');
      if (list === null) return null;
      const inner: Row = extend(row, e.acc, evaluate(e.init, row, ctx));
      for (const item of list) {
        ctx.budget.step();
        inner[e.variable] = item;
        inner[e.acc] = evaluate(e.expr, inner, ctx);
      }
      return inner[e.acc]!;
    }
    case 'pattern': {
      const out: Value[] = [];
      for (const r of drain(ctx.match([e.pattern], null, row))) out.push(pathOf(e.pattern, r));
      return out;
    }
    case 'patternComp': {
      const out: Value[] = [];
      for (const r of drain(ctx.match([e.pattern], e.where, row))) {
        out.push(evaluate(e.map, r, ctx));
      }
      return out;
    }
    case 'exists': {
      const stream = e.query ? ctx.subquery(e.query, row) : ctx.match(e.patterns, e.where, row);
      for (const _ of drain(stream)) return true;
      return false;
    }
    case 'countSubquery': {
      const stream = e.query ? ctx.subquery(e.query, row) : ctx.match(e.patterns, e.where, row);
      let n = 0;
      for (const _ of drain(stream)) n++;
      return n;
    }
    case 'mapProjection':
      return mapProjection(e.variable, e.items, row, ctx);
  }
}

/** The names of the aggregating functions (count(*) is its own expression). */
export const AGGREGATES = new Set(['count', 'collect', 'sum', 'avg', 'min', 'max', 'stdev', 'stdevp', 'percentilecont', 'percentiledisc']);

/** Whether an expression holds an aggregate outside any nested scope of its own. */
export function hasAggregate(e: Expr): boolean {
  if (e.kind === 'countStar') return true;
  if (e.kind === 'call' && AGGREGATES.has(e.name)) return true;
  return directChildren(e).some(hasAggregate);
}

/**
 * Runs a nested stream to its end inside an evaluation: a pause is skipped (the nested work is small), a wait for
 * data is handed to the operator evaluating us, which waits and evaluates again.
 */
function* drain(stream: Stream): Generator<Row, void, void> {
  for (const r of stream) {
    if (r instanceof Signal) {
      if (r.wait) throw new NeedData(r.wait);
      continue;
    }
    yield r;
  }
}

/** A matched pattern as a path value (pattern expressions return their paths). */
function pathOf(pattern: PatternPart, row: Row): Value {
  const key = pattern.pathVariable ?? PATTERN_PATH;
  return row[key] ?? null;
}

/** Where the matcher leaves an anonymous pattern's path for pattern expressions. */
export const PATTERN_PATH = ' path';

export function labelMatch(e: LabelExpr, has: (label: string) => boolean): boolean {
  switch (e.kind) {
    case 'name':
      return has(e.name);
    case 'and':
      return e.items.every((i) => labelMatch(i, has));
    case 'or':
      return e.items.some((i) => labelMatch(i, has));
    case 'not':
      return !labelMatch(e.item, has);
    case 'any':
      return true;
  }
}

/** A value as a boolean condition: true, false or null; anything else is a TypeError. */
export function truth(v: Value, where: string): boolean | null {
  if (v === null || typeof v === 'boolean') return v;
  throw runtimeError('TypeError', 'InvalidArgumentType', `${where} expects a boolean, got ${typeName(v)}`);
}

function binary(e: Extract<Expr, { kind: 'binary' }>, row: Row, ctx: ExecContext): Value {
  switch (e.op) {
    case 'and': {
      const l = truth(evaluate(e.left, row, ctx), 'AND');
      if (l === false) return false;
      const r = truth(evaluate(e.right, row, ctx), 'AND');
      if (r === false) return false;
      return l === null || r === null ? null : true;
    }
    case 'or': {
      const l = truth(evaluate(e.left, row, ctx), 'OR');
      if (l === true) return true;
      const r = truth(evaluate(e.right, row, ctx), 'OR');
      if (r === true) return true;
      return l === null || r === null ? null : false;
    }
    case 'xor': {
      const l = truth(evaluate(e.left, row, ctx), 'XOR');
      const r = truth(evaluate(e.right, row, ctx), 'XOR');
      return l === null || r === null ? null : l !== r;
    }
    default:
      break;
  }
  const l = evaluate(e.left, row, ctx);
  const r = evaluate(e.right, row, ctx);
  switch (e.op) {
    case '=':
      return equals(l, r);
    case '<>': {
      const eq = equals(l, r);
      return eq === null ? null : !eq;
    }
    case '<': {
      const c = compare(l, r);
      return c === null ? null : c < 0;
    }
    case '>': {
      const c = compare(l, r);
      return c === null ? null : c > 0;
    }
    case '<=': {
      const c = compare(l, r);
      return c === null ? null : c <= 0;
    }
    case '>=': {
      const c = compare(l, r);
      return c === null ? null : c >= 0;
    }
    case 'startsWith':
      return typeof l === 'string' && typeof r === 'string' ? l.startsWith(r) : null;
    case 'endsWith':
      return typeof l === 'string' && typeof r === 'string' ? l.endsWith(r) : null;
    case 'contains':
      return typeof l === 'string' && typeof r === 'string' ? l.includes(r) : null;
    case '=~':
      return typeof l === 'string' && typeof r === 'string' ? regexMatch(l, r) : null;
    case 'in':
      return inList(l, r);
    default:
      return arithmetic(e.op, l, r);
  }
}

function inList(v: Value, list: Value): boolean | null {
  if (list === null) return null;
  if (!Array.isArray(list)) throw runtimeError('TypeError', 'InvalidArgumentType', `IN expects a list, got ${typeName(list)}`);
  let unknown = false;
  for (const item of list) {
    const eq = equals(v, item);
    if (eq === true) return true;
    if (eq === null) unknown = true;
  }
  return unknown ? null : false;
}

function quantifier(e: Extract<Expr, { kind: 'quantifier' }>, row: Row, ctx: ExecContext): Value {
  const list = asList(evaluate(e.list, row, ctx), e.quantifier);
  if (list === null) return null;
  let trues = 0;
  let nulls = 0;
  const inner: Row = extend(row);
  for (const item of list) {
    ctx.budget.step();
    inner[e.variable] = item;
    const t = e.where ? truth(evaluate(e.where, inner, ctx), e.quantifier) : truth(item, e.quantifier);
    if (t === true) trues++;
    else if (t === null) nulls++;
    else if (e.quantifier === 'all') return false;
    if (t === true && e.quantifier === 'any') return true;
    if (t === true && e.quantifier === 'none') return false;
    if (trues > 1 && e.quantifier === 'single') return false;
  }
  switch (e.quantifier) {
    case 'all':
      return nulls ? null : true;
    case 'any':
      return nulls ? null : false;
    case 'none':
      return nulls ? null : true;
    case 'single':
      return nulls ? (trues <= 1 ? null : false) : trues === 1;
  }
}

function asList(v: Value, where: string): Value[] | null {
  if (v === null) return null;
  if (Array.isArray(v)) return v;
  throw runtimeError('TypeError', 'InvalidArgumentType', `${where} expects a list, got ${typeName(v)}`);
}

/** `x.key` on a node, relationship, map or temporal value; null on null. */
export function property(v: Value, key: string, ctx: ExecContext): Value {
  if (v === null) return null;
  if (v instanceof NodeV) return ctx.graph.nodeProperty(v.id, key);
  if (v instanceof RelV) return ctx.graph.relProperty(v, key);
  if (isMap(v)) return v[key] ?? null;
  if (v instanceof DateTimeV || v instanceof DateV || v instanceof DurationV) {
    const f = v.field(key);
    if (f === undefined) throw runtimeError('SemanticError', 'InvalidArgumentType', `${typeName(v)} has no field ${key}`);
    return f;
  }
  throw runtimeError('TypeError', 'InvalidArgumentType', `Type mismatch: expected a map, node or relationship but was ${typeName(v)}`);
}

function index(v: Value, i: Value, ctx: ExecContext): Value {
  if (v === null || i === null) return null;
  if (Array.isArray(v)) {
    if (typeof i !== 'number') throw runtimeError('TypeError', 'InvalidArgumentType', `List index must be an integer, got ${typeName(i)}`);
    const at = i < 0 ? v.length + i : i;
    return at >= 0 && at < v.length ? v[at]! : null;
  }
  if (typeof i === 'string') return property(v, i, ctx);
  if (isMap(v) || v instanceof NodeV || v instanceof RelV) {
    throw runtimeError('TypeError', 'InvalidArgumentType', `Map key must be a string, got ${typeName(i)}`);
  }
  throw runtimeError('TypeError', 'InvalidArgumentType', `Type mismatch: expected a list or a map but was ${typeName(v)}`);
}

function slice(v: Value, from: Value, to: Value): Value {
  if (v === null) return null;
  if (!Array.isArray(v)) throw runtimeError('TypeError', 'InvalidArgumentType', `Type mismatch: expected a list but was ${typeName(v)}`);
  if ((from !== null && from !== undefined && typeof from !== 'number') || (to !== null && to !== undefined && typeof to !== 'number')) {
    if (from === null || to === null) return null;
    throw runtimeError('TypeError', 'InvalidArgumentType', 'List slice bounds must be integers');
  }
  const n = v.length;
  const norm = (x: number) => Math.min(n, Math.max(0, x < 0 ? n + x : x));
  const a = from === undefined || from === null ? 0 : norm(from as number);
  const b = to === undefined || to === null ? n : norm(to as number);
  return v.slice(a, Math.max(a, b));
}

function mapProjection(variable: string, items: MapProjectionItem[], row: Row, ctx: ExecContext): Value {
  const base = row[variable];
  if (base === undefined) throw runtimeError('SemanticError', 'UndefinedVariable', `Variable \`${variable}\` not defined`);
  if (base === null) return null;
  const out: MapValue = {};
  for (const item of items) {
    switch (item.kind) {
      case 'all':
        if (base instanceof NodeV) Object.assign(out, ctx.graph.nodeProperties(base.id));
        else if (base instanceof RelV) Object.assign(out, ctx.graph.relProperties(base));
        else if (isMap(base)) Object.assign(out, base);
        break;
      case 'property':
        out[item.key] = property(base, item.key, ctx);
        break;
      case 'variable': {
        const v = row[item.name];
        if (v === undefined) throw runtimeError('SemanticError', 'UndefinedVariable', `Variable \`${item.name}\` not defined`);
        out[item.name] = v;
        break;
      }
      case 'entry':
        out[item.key] = evaluate(item.expr, row, ctx);
        break;
    }
  }
  return out;
}
