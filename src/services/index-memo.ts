import type { GraphIndex } from '../graph/index/graph-index.js';

/**
 * `compute(index, node)` kept per index: what one index answers for a node cannot change while that index answers
 * (a change in the graph builds a new index), so the memory needs no epoch of its own and goes when the index does.
 * Up to `max` nodes per index; past it the memory starts over. Answers are frozen: every caller shares them.
 */
export function memoPerIndex<R extends object>(compute: (index: GraphIndex, node: number) => R, max = 10_000) {
  const memos = new WeakMap<GraphIndex, Map<number, R>>();
  return (index: GraphIndex, node: number): R => {
    let memo = memos.get(index);
    if (!memo) memos.set(index, (memo = new Map()));
    let answer = memo.get(node);
    if (answer === undefined) {
      answer = Object.freeze(compute(index, node));
      if (memo.size >= max) memo.clear();
      memo.set(node, answer);
    }
    return answer;
  };
}
