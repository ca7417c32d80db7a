import { limitExceeded, timedOut } from '../errors.js';
import type { CypherGraph } from '../graph/graph.js';
import type { Expr, PatternPart, Query } from '../model/ast.js';
import type { DateTimeV } from './temporal.js';
import type { Value } from './values.js';

/** A row of bindings: variable name → value. */
export type Row = Record<string, Value>;

/**
 * A copy of a row, with one more binding when `key` is given. Rows are copied key by key, not by `{ ...row, k: v }`:
 * V8 makes an object spread and then extended a slow one (Node 20: ~40× slower to build), and a scan builds one a row.
 */
export function extend(row: Row, key?: string, value?: Value): Row {
  const out: Row = {};
  for (const k in row) out[k] = row[k]!;
  if (key !== undefined) out[key] = value!;
  return out;
}

/**
 * What an operator hands up instead of a row when the driver must act: give the event loop a turn (`pause`), or
 * wait for data a graph read asked for (`wait`) and then go on.
 */
export class Signal {
  constructor(readonly wait?: Promise<void>) {}
}

export const PAUSE = new Signal();

/** A stream of rows between operators. */
export type Stream = Generator<Row | Signal, void, void>;

/** Per-query limits; every figure is checked while the query runs. */
export interface Limits {
  /** Values a query may hold at once (buffered rows × columns, list elements). */
  maxHeldValues: number;
  /** Hops of a variable-length or shortest path pattern with no upper bound of its own. */
  maxUnboundedHops: number;
  /** Paths one shortest-path search returns at most. */
  maxShortestPaths: number;
}

export const DEFAULT_LIMITS: Limits = { maxHeldValues: 5_000_000, maxUnboundedHops: 15, maxShortestPaths: 1000 };

/** How long the executor runs before it gives the event loop a turn. */
const SLICE_MS = 10;
/** Work units between clock reads. */
const CHECK_EVERY = 2048;

/**
 * Time and memory of one query. Operators call `step()` in their loops: every few thousand steps it reads the clock,
 * throws past the deadline, and asks for a pause once the slice is used up (`pauseDue`). Buffers call `hold(n)`
 * for what they keep and `release(n)` when they drop it.
 */
export class Budget {
  private steps = 0;
  private sliceStart = Date.now();
  private held = 0;
  pauseDue = false;

  constructor(
    readonly limits: Limits,
    private readonly deadline: number | undefined,
    private readonly signal?: AbortSignal,
  ) {}

  step(n = 1): void {
    this.steps += n;
    if (this.steps < CHECK_EVERY) return;
    this.steps = 0;
    const now = Date.now();
    if ((this.deadline !== undefined && now > this.deadline) || this.signal?.aborted) throw timedOut();
    if (now - this.sliceStart >= SLICE_MS) this.pauseDue = true;
  }

  /** After the driver has given the loop its turn. */
  resumed(): void {
    this.pauseDue = false;
    this.sliceStart = Date.now();
    if ((this.deadline !== undefined && Date.now() > this.deadline) || this.signal?.aborted) throw timedOut();
  }

  hold(n: number): void {
    this.held += n;
    if (this.held > this.limits.maxHeldValues) {
      throw limitExceeded(
        `The query needs to hold more than ${this.limits.maxHeldValues.toLocaleString('en-US')} values at once (its memory budget). ` +
          'Narrow the pattern, aggregate earlier, or add a LIMIT.',
      );
    }
  }

  release(n: number): void {
    this.held = Math.max(0, this.held - n);
  }
}

/** What evaluation and the operators read. */
export interface ExecContext {
  graph: CypherGraph;
  params: Record<string, Value>;
  budget: Budget;
  /** `datetime()` and `timestamp()` without arguments: one instant for the whole query, as Neo4j. */
  now: DateTimeV;
  /**
   * Pattern matching for expressions that hold patterns (pattern predicates, EXISTS, COUNT, comprehensions): the rows
   * that extend `row` with the patterns' variables. Given by the executor, so evaluation needs no import of it.
   */
  match(patterns: PatternPart[], where: Expr | null, row: Row): Stream;
  /** A whole query run for each outer row (EXISTS { MATCH … RETURN … }). */
  subquery(query: Query, row: Row): Stream;
}
