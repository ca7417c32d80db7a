import type { GraphIndex } from '../../graph/index/graph-index.js';

/**
 * `compute(index, arg)` kept per index: what one index answers cannot change while that index answers (a change in
 * the graph builds a new index), so the memory needs no epoch of its own and goes when the index does. `keyOf` names
 * what the answer depends on besides the index (a dense node id by default). Up to `max` answers per index; past it
 * the memory starts over. Answers are frozen: every caller shares them.
 */
export function memoPerIndex<R extends object, A = number>(
  compute: (index: GraphIndex, arg: A) => R,
  max = 10_000,
  keyOf: (arg: A) => string | number = (arg) => arg as unknown as number,
) {
  const memos = new WeakMap<GraphIndex, Map<string | number, R>>();
  return (index: GraphIndex, arg: A): R => {
    let memo = memos.get(index);
    if (!memo) memos.set(index, (memo = new Map()));
    const key = keyOf(arg);
    let answer = memo.get(key);
    if (answer === undefined) {
      answer = Object.freeze(compute(index, arg));
      if (memo.size >= max) memo.clear();
      memo.set(key, answer);
    }
    return answer;
  };
}
