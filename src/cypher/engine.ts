import { analyze, type Analysis } from './analyze/analyze.js';
import { CypherError } from './errors.js';
import { Budget, DEFAULT_LIMITS, Signal, type ExecContext, type Limits } from './execute/context.js';
import { runQuery, planFor } from './execute/query.js';
import { runMatch } from './execute/match.js';
import { PATTERN_PATH } from './execute/eval.js';
import { DateTimeV } from './execute/temporal.js';
import { fromJson, type Value } from './execute/values.js';
import { toModel } from './frontend/query.js';
import type { CypherGraph } from './graph/graph.js';
import type { Query } from './model/ast.js';
import { parseText } from './parse/parser.js';

/**
 * The Cypher engine's one entrance: `prepare` runs stages 1-3 (parse, model, analysis) and throws a CypherError for
 * a query that cannot run; `execute` plans and runs a prepared query over a graph. Execution is a pull of rows
 * through generators that give the event loop a turn every ~10 ms and check the deadline as they go.
 */

export interface PreparedQuery {
  text: string;
  query: Query;
  analysis: Analysis;
}

/** Parses and checks a query; a CypherError says what is wrong (syntax with line and column, semantics, read-only). */
export function prepare(text: string, opts: { testWrites?: boolean } = {}): PreparedQuery {
  try {
    const query = toModel(parseText(text), opts);
    return { text, query, analysis: analyze(query) };
  } catch (err) {
    throw deepNesting(err);
  }
}

/** A query nested past the parser's or the walkers' stack is refused, not a crash. */
function deepNesting(err: unknown): unknown {
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return new CypherError('limit', 'The query is nested too deeply to be processed.', { type: 'SyntaxError', detail: 'NestingTooDeep' });
  }
  return err;
}

export interface ExecuteOptions {
  /** `$name` parameters, as JSON (numbers with a fraction become floats). */
  params?: Record<string, unknown>;
  /** Parameters already as Cypher values (the TCK's, which tell 1 from 1.0); they win over `params`. */
  values?: Record<string, Value>;
  limits?: Partial<Limits>;
  /** Epoch milliseconds past which the run stops with a timeout error. */
  deadline?: number;
  signal?: AbortSignal;
  /** Rows returned at most; past it the answer is cut and says so (`truncated`). */
  maxRows?: number;
  /** `datetime()`'s instant (tests pin it). */
  now?: Date;
}

export interface QueryResult {
  columns: string[];
  rows: Value[][];
  truncated: boolean;
}

export async function execute(p: PreparedQuery, graph: CypherGraph, opts: ExecuteOptions = {}): Promise<QueryResult> {
  const ctx = context(graph, opts);
  await graph.prepare?.([...p.analysis.propertyKeys], p.analysis.readsAllProperties);
  const { columns, rows } = runQuery(p.query, ctx);
  const out: Value[][] = [];
  const maxRows = opts.maxRows ?? Infinity;
  let truncated = false;
  try {
    for (;;) {
      const next = rows.next();
      if (next.done) break;
      const r = next.value;
      if (r instanceof Signal) {
        if (r.wait) await r.wait;
        else await new Promise<void>((resolve) => setImmediate(resolve));
        ctx.budget.resumed();
        continue;
      }
      if (out.length >= maxRows) {
        truncated = true;
        break;
      }
      out.push(columns.map((c) => r[c] ?? null));
      ctx.budget.step();
      if (ctx.budget.pauseDue) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        ctx.budget.resumed();
      }
    }
  } catch (err) {
    throw deepNesting(err);
  } finally {
    rows.return();
  }
  return { columns, rows: out, truncated };
}

function context(graph: CypherGraph, opts: ExecuteOptions): ExecContext {
  const params: Record<string, Value> = {};
  for (const [k, v] of Object.entries(opts.params ?? {})) params[k] = fromJson(v);
  Object.assign(params, opts.values);
  const ctx: ExecContext = {
    graph,
    params,
    budget: new Budget({ ...DEFAULT_LIMITS, ...opts.limits }, opts.deadline, opts.signal),
    now: new DateTimeV((opts.now ?? new Date()).getTime()),
    match: (patterns, where, row) => runMatch(planFor(patterns, patterns, where, row, ctx, PATTERN_PATH), row, ctx),
    subquery: (query, row) => runQuery(query, ctx, row).rows,
  };
  return ctx;
}
