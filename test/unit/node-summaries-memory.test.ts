import type { NodeSummary } from '../../src/graph/store';
import { cachedNodeReads } from '../../src/services/graph/node-cache';

/** A store that counts the ids it is asked for, and an index holder whose epoch the test moves. */
function setup(maxSummaries: number) {
  const asked: number[][] = [];
  const store = {
    nodesByObjectIds: async () => [],
    nodesByIds: async () => [],
    edgesByTriples: async () => [],
    nodeSummaries: async (ids: readonly number[]): Promise<NodeSummary[]> => {
      asked.push([...ids]);
      return ids.map((id) => ({ id, objectid: `N${id}`, name: `n${id}`, kinds: ['Base'] }));
    },
  };
  const index = { epoch: 0, observe: () => undefined };
  return { asked, index, reads: cachedNodeReads(store, index, 10, maxSummaries) };
}
const idsOf = (s: NodeSummary[]) => s.map((x) => x.id);

describe('node summaries kept per epoch', () => {
  it('reads only what it does not hold, and answers in the order asked', async () => {
    const { asked, reads } = setup(100);
    expect(idsOf(await reads.nodeSummaries([1, 2, 3]))).toEqual([1, 2, 3]);
    const again = reads.nodeSummaries([3, 1]);
    expect(again).not.toBeInstanceOf(Promise); // all in memory: a plain value
    expect(idsOf(again as NodeSummary[])).toEqual([3, 1]);
    expect(idsOf(await reads.nodeSummaries([4, 2]))).toEqual([4, 2]);
    expect(asked).toEqual([[1, 2, 3], [4]]);
  });

  it('answers whole when keeping a read starts the memory over', async () => {
    const { asked, reads } = setup(4);
    await reads.nodeSummaries([1, 2, 3]);
    // 3 held + 2 read > 4: the memory starts over, and the answer still holds the three it had.
    expect(idsOf(await reads.nodeSummaries([1, 2, 3, 4, 5]))).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('keeps nothing read while the epoch moved, nor a list larger than the memory', async () => {
    const { asked, index, reads } = setup(3);
    const pending = reads.nodeSummaries([1]);
    index.epoch = 1;
    expect(idsOf(await pending)).toEqual([1]);
    expect(idsOf(await reads.nodeSummaries([1]))).toEqual([1]); // read again: not kept under the old epoch
    expect(idsOf(await reads.nodeSummaries([5, 6, 7, 8]))).toEqual([5, 6, 7, 8]);
    expect(idsOf(await reads.nodeSummaries([5]))).toEqual([5]);
    expect(asked).toEqual([[1], [1], [5, 6, 7, 8], [5]]);
  });

  it('answers whole when another request starts the memory over while it waits for the rest', async () => {
    const waiting: (() => void)[] = [];
    const store = {
      nodesByObjectIds: async () => [],
      nodesByIds: async () => [],
      edgesByTriples: async () => [],
      // Each read answers only when the test lets it.
      nodeSummaries: (ids: readonly number[]) =>
        new Promise<NodeSummary[]>((resolve) =>
          waiting.push(() => resolve(ids.map((id) => ({ id, objectid: `N${id}`, name: `n${id}`, kinds: ['Base'] })))),
        ),
    };
    const reads = cachedNodeReads(store, { epoch: 0, observe: () => undefined }, 10, 4);
    const first = reads.nodeSummaries([1, 2]);
    waiting.shift()!();
    await first;
    // 1 and 2 are held; this request still needs 9.
    const slow = reads.nodeSummaries([1, 2, 9]);
    // Meanwhile another request reads and keeps more than fits beside 1 and 2: the memory starts over.
    const other = reads.nodeSummaries([20, 21, 22, 23]);
    waiting[1]!();
    await other;
    waiting[0]!();
    expect(idsOf(await slow)).toEqual([1, 2, 9]);
  });
});
