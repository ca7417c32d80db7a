import type { GraphIndex } from '../../src/graph/index/graph-index';
import { memoPerIndex } from '../../src/services/graph/index-memo';

describe('memoPerIndex', () => {
  const indexes = () => [{} as GraphIndex, {} as GraphIndex];

  it('computes once per index and node, again for a new index', () => {
    const [a, b] = indexes();
    const calls: [GraphIndex, number][] = [];
    const counts = memoPerIndex((ix, node) => (calls.push([ix, node]), { node, n: calls.length }));
    expect(counts(a!, 1)).toEqual({ node: 1, n: 1 });
    expect(counts(a!, 1)).toEqual({ node: 1, n: 1 });
    expect(counts(a!, 2)).toEqual({ node: 2, n: 2 });
    expect(counts(b!, 1)).toEqual({ node: 1, n: 3 }); // a rebuilt index answers afresh
    expect(calls).toHaveLength(3);
  });

  it('freezes what it keeps, and starts over past its bound', () => {
    const [a] = indexes();
    let computed = 0;
    const memo = memoPerIndex(() => ({ computed: ++computed }), 2);
    expect(Object.isFrozen(memo(a!, 1))).toBe(true);
    memo(a!, 2);
    memo(a!, 3); // past the bound: the memory starts over with node 3
    expect(memo(a!, 3).computed).toBe(3);
    expect(memo(a!, 1).computed).toBe(4);
  });

  it('keys answers by what keyOf names, so two arguments with the same key share one answer', () => {
    const [a] = indexes();
    let computed = 0;
    const memo = memoPerIndex(
      (_ix, arg: { id: number; kind: string }) => ({ computed: ++computed, kind: arg.kind }),
      10,
      (arg) => `${arg.id}:${arg.kind}`,
    );
    expect(memo(a!, { id: 1, kind: 'Group' }).computed).toBe(1);
    expect(memo(a!, { id: 1, kind: 'Group' }).computed).toBe(1); // another object, the same key
    expect(memo(a!, { id: 1, kind: 'User' })).toEqual({ computed: 2, kind: 'User' });
  });
});
