import type { Clause, Expr, PatternPart, Query, SingleQuery } from '../model/ast.js';
import { semanticError } from '../errors.js';
import { planMatch, type GraphStats, type MatchPlan } from '../plan/plan.js';
import { patternVariables } from '../plan/expressions.js';
import { extend, Signal, type ExecContext, type Row, type Stream } from './context.js';
import { PATTERN_PATH, truth } from './eval.js';
import { runMatch } from './match.js';
import { create } from './create.js';
import { selectivity } from './estimate.js';
import { columnsOf, evalNow, evalWaiting, isUserVariable, PENDING, project } from './projection.js';
import { keyOf, type Value } from './values.js';

/** Stage 5: a query as a stream of rows over the graph, clause by clause. */

export interface QueryStream {
  columns: string[];
  rows: Stream;
}

/** The variables in scope after each clause, worked out before running (columns and plans depend on them). */
function scopes(q: SingleQuery, input: readonly string[]): string[][] {
  const out: string[][] = [];
  let scope = [...input];
  for (const c of q.clauses) {
    out.push(scope);
    if (c.kind === 'match' || c.kind === 'create') {
      const vars = new Set(scope);
      for (const p of c.patterns) for (const v of patternVariables(p, new Set())) vars.add(v);
      scope = [...vars];
    } else if (c.kind === 'unwind') scope = [...new Set([...scope, c.variable])];
    else if (c.kind === 'with') scope = columnsOf(c.projection, scope);
    else scope = columnsOf(c.projection, scope);
  }
  out.push(scope);
  return out;
}

export function runQuery(q: Query, ctx: ExecContext, input: Row = {}): QueryStream {
  const parts = q.parts.map((p) => runSingle(p, ctx, input));
  const columns = parts[0]!.columns;
  for (const p of parts.slice(1)) {
    if (p.columns.length !== columns.length || p.columns.some((c, i) => c !== columns[i])) {
      throw semanticError('DifferentColumnsInUnion', 'All sub queries in an UNION must have the same return column names.');
    }
  }
  if (parts.length === 1) return parts[0]!;
  return {
    columns,
    rows: union(
      parts.map((p) => p.rows),
      q.unionAll,
      columns,
      ctx,
    ),
  };
}

function* union(streams: Stream[], all: boolean, columns: string[], ctx: ExecContext): Stream {
  const seen = all ? undefined : new Set<string>();
  for (const s of streams) {
    for (const r of s) {
      if (r instanceof Signal || !seen) {
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
}

function runSingle(q: SingleQuery, ctx: ExecContext, input: Row): QueryStream {
  const inScope = scopes(q, Object.keys(input));
  let stream: Stream = (function* () {
    yield input;
  })();
  q.clauses.forEach((c, i) => {
    stream = clause(c, stream, inScope[i]!, ctx);
  });
  const last = q.clauses[q.clauses.length - 1];
  const columns = last?.kind === 'return' ? columnsOf(last.projection, inScope[q.clauses.length - 1]!) : [];
  return { columns, rows: last?.kind === 'return' ? stream : drainOnly(stream) };
}

/** A query that ends without RETURN (an EXISTS subquery's MATCH): its rows, with no columns. */
function* drainOnly(stream: Stream): Stream {
  for (const r of stream) yield r;
}

function clause(c: Clause, input: Stream, scope: string[], ctx: ExecContext): Stream {
  switch (c.kind) {
    case 'match':
      return match(c, input, ctx);
    case 'unwind':
      return unwind(c.expr, c.variable, input, ctx);
    case 'with':
      return c.where ? filter(project(input, c.projection, scope, ctx), c.where, ctx) : project(input, c.projection, scope, ctx);
    case 'return':
      return project(input, c.projection, scope, ctx);
    case 'create':
      return create(c.patterns, input, ctx);
  }
}

function* filter(input: Stream, where: Expr, ctx: ExecContext): Stream {
  for (const r of input) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    const v = evalNow(where, r, ctx);
    if (truth(v === PENDING ? yield* evalWaiting(where, r, ctx) : v, 'WHERE') === true) yield r;
  }
}

function* unwind(expr: Expr, variable: string, input: Stream, ctx: ExecContext): Stream {
  for (const r of input) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    const now = evalNow(expr, r, ctx);
    const v: Value = now === PENDING ? yield* evalWaiting(expr, r, ctx) : now;
    if (v === null) continue;
    const list = Array.isArray(v) ? v : [v];
    for (const item of list) {
      ctx.budget.step();
      yield extend(r, variable, item);
    }
  }
}

const plans = new WeakMap<object, Map<string, MatchPlan>>();

/** The plan of a MATCH (or a pattern expression) for rows with these variables bound, made once. */
export function planFor(
  key: object,
  patterns: PatternPart[],
  where: Expr | null,
  row: Row,
  ctx: ExecContext,
  pathSlot?: string,
): MatchPlan {
  const bound = Object.keys(row);
  const id = bound.sort().join(',');
  let byScope = plans.get(key);
  if (!byScope) plans.set(key, (byScope = new Map()));
  let plan = byScope.get(id);
  if (!plan) {
    plan = planMatch(patterns, where, new Set(bound), statsOf(ctx), pathSlot);
    byScope.set(id, plan);
  }
  return plan;
}

function statsOf(ctx: ExecContext): GraphStats {
  const g = ctx.graph;
  return {
    nodeCount: () => g.nodeCount(),
    labelCount: (l) => g.labelCount(l),
    canLookUp: (key) => g.nodesByProperty !== undefined && (key === 'objectid' || key === 'name'),
    selectivity: (node, filters) => selectivity(node, filters, ctx),
  };
}

function* match(c: Extract<Clause, { kind: 'match' }>, input: Stream, ctx: ExecContext): Stream {
  const introduced = new Set<string>();
  for (const p of c.patterns) {
    if (p.pathVariable) introduced.add(p.pathVariable);
    for (const n of p.nodes) if (n.variable) introduced.add(n.variable);
    for (const r of p.rels) if (r.variable) introduced.add(r.variable);
  }
  for (const r of input) {
    if (r instanceof Signal) {
      yield r;
      continue;
    }
    const plan = planFor(c, c.patterns, c.where, r, ctx);
    let any = false;
    for (const out of runMatch(plan, r, ctx)) {
      if (out instanceof Signal) {
        yield out;
        continue;
      }
      any = true;
      yield strip(out);
    }
    if (!any && c.optional) {
      const nulls: Row = extend(r);
      for (const v of introduced) if (nulls[v] === undefined) nulls[v] = null;
      yield nulls;
    }
  }
}

/** Drops the internal slots of anonymous nodes and relationships from a row. */
function strip(row: Row): Row {
  let internal = false;
  for (const k in row) {
    if (!isUserVariable(k)) {
      internal = true;
      break;
    }
  }
  if (!internal) return row;
  const out: Row = {};
  for (const k in row) if (isUserVariable(k) || k === PATTERN_PATH) out[k] = row[k]!;
  return out;
}
