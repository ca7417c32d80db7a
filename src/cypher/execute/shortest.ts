import type { Direction } from '../model/ast.js';
import { NeedData } from '../graph/graph.js';
import { PAUSE, Signal, type ExecContext } from './context.js';
import type { RelV } from './values.js';

export interface ShortestSearch {
  source: number;
  /** The other end when it is bound; undefined: every node `accept` takes, each with its own shortest paths. */
  target: number | undefined;
  direction: Direction;
  types: readonly string[] | null;
  maxDepth: number;
  minDepth: number;
  /** allShortestPaths: every shortest path; shortestPath: one. */
  all: boolean;
  accept(node: number): boolean;
  relOk(rel: RelV): boolean;
  /** No check on the relationships beyond their types (no inline map, no WHERE, none bound earlier in the MATCH). */
  plainRels: boolean;
}

export interface FoundPath {
  rels: RelV[];
  end: number;
}

/**
 * shortestPath / allShortestPaths. One pair with nothing to check on the way goes to the graph's own search when it
 * has one (the path index: bidirectional, in typed arrays). Otherwise one breadth-first search from the bound end,
 * level by level, keeping each node's predecessors on the previous level: it answers a pair, or every node the
 * other end's pattern accepts at once (`shortestPath((u:User)-[*1..]->(g))` with g bound runs one search from g,
 * not one per user).
 */
export function* shortestSearch(ctx: ExecContext, s: ShortestSearch): Generator<Signal, Iterable<FoundPath>, void> {
  const limit = ctx.budget.limits.maxShortestPaths;
  if (s.target === undefined && s.plainRels && ctx.graph.reach && s.minDepth <= 1) return yield* reachAll(ctx, s, limit);
  if (s.target !== undefined && ctx.graph.shortestPaths && s.minDepth <= 1) {
    if (s.source === s.target) return [];
    const fast = ctx.graph.shortestPaths(s.source, s.target, s.direction, s.types, s.maxDepth, s.all ? limit : 1);
    if (fast && fast.every((p) => p.every((r) => s.relOk(r))) && (yield* check(() => s.accept(s.target!)))) {
      return fast.map((rels) => ({ rels, end: s.target! }));
    }
  }
  const dist = new Map<number, number>([[s.source, 0]]);
  const preds = new Map<number, { rel: RelV; prev: number }[]>();
  let frontier = [s.source];
  let depth = 0;
  let reachedTarget = false;
  while (frontier.length && depth < s.maxDepth && !reachedTarget) {
    const next: number[] = [];
    depth++;
    for (const u of frontier) {
      for (const step of ctx.graph.expand(u, s.direction, s.types)) {
        ctx.budget.step();
        if (ctx.budget.pauseDue) yield PAUSE;
        const v = step.other;
        const seen = dist.get(v);
        if (seen !== undefined && seen < depth) continue;
        if (!(yield* check(() => s.relOk(step.rel)))) continue;
        if (seen === undefined) {
          dist.set(v, depth);
          next.push(v);
          ctx.budget.hold(1);
        }
        let list = preds.get(v);
        if (!list) preds.set(v, (list = []));
        list.push({ rel: step.rel, prev: u });
        if (v === s.target) reachedTarget = true;
      }
    }
    frontier = next;
  }
  ctx.budget.release(dist.size);
  const ends: number[] = [];
  if (s.target !== undefined) {
    if (s.source === s.target ? s.minDepth === 0 : dist.has(s.target)) ends.push(s.target);
  } else {
    for (const [node, d] of dist) {
      if (d < s.minDepth || (d === 0 && s.minDepth > 0)) continue;
      if (yield* check(() => s.accept(node))) ends.push(node);
    }
  }
  const out: FoundPath[] = [];
  for (const end of ends) {
    if (end === s.source) {
      out.push({ rels: [], end });
      continue;
    }
    for (const rels of pathsTo(end, s.source, preds, dist, s.all ? limit : 1)) {
      out.push({ rels, end });
      if (out.length >= limit * (s.target === undefined ? ends.length : 1)) break;
    }
  }
  return out;
}

/**
 * One typed-array search from the bound end, then, lazily in the order the nodes were reached, the paths to each
 * node the other end's pattern accepts: a LIMIT after it stops the walk early.
 */
function* reachAll(ctx: ExecContext, s: ShortestSearch, limit: number): Generator<Signal, Iterable<FoundPath>, void> {
  const reach = ctx.graph.reach!(s.source, s.direction, s.types, s.maxDepth);
  ctx.budget.step(reach.order.length);
  const accepted: number[] = [];
  for (let i = s.minDepth === 0 ? 0 : 1; i < reach.order.length; i++) {
    const node = reach.order[i]!;
    ctx.budget.step();
    if (ctx.budget.pauseDue) yield PAUSE;
    if (yield* check(() => s.accept(node))) accepted.push(node);
  }
  ctx.budget.hold(accepted.length);
  ctx.budget.release(accepted.length);
  return (function* () {
    for (const end of accepted) {
      if (end === s.source) {
        yield { rels: [], end };
        continue;
      }
      for (const rels of reach.paths(end, s.all ? limit : 1)) yield { rels, end };
    }
  })();
}

/** Paths back from `end` to `source` through predecessors one level closer each time, at most `max`. */
function pathsTo(
  end: number,
  source: number,
  preds: Map<number, { rel: RelV; prev: number }[]>,
  dist: Map<number, number>,
  max: number,
): RelV[][] {
  const out: RelV[][] = [];
  const walk = (node: number, suffix: RelV[]): void => {
    if (out.length >= max) return;
    if (node === source) {
      out.push([...suffix].reverse());
      return;
    }
    const d = dist.get(node)!;
    for (const p of preds.get(node) ?? []) {
      if (dist.get(p.prev) !== d - 1) continue;
      suffix.push(p.rel);
      walk(p.prev, suffix);
      suffix.pop();
      if (out.length >= max) return;
    }
  };
  walk(end, []);
  return out;
}

function* check(fn: () => boolean): Generator<Signal, boolean, void> {
  for (;;) {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof NeedData)) throw e;
      yield new Signal(e.ready);
    }
  }
}
