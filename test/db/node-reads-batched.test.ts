import type { EdgeTriple } from '../../src/graph/store';
import { runInScope, type RequestScope } from '../../src/scope';
import { cachedNodeReads } from '../../src/services/graph/node-cache';
import { useGraphDb } from '../helpers/graph';

/**
 * Node reads the memory lacks, for requests that arrive together, share one query (services/graph/node-cache.ts), and that
 * query is bound by the latest deadline among its requests, not by whichever request asked first.
 */
describe('node reads of requests that arrive together', () => {
  const g = useGraphDb();
  /** The memory over the real store, with the store's multi-node reads recorded. */
  function reader() {
    const asked: string[][] = [];
    const store = {
      nodesByObjectIds: (ids: readonly string[]) => (asked.push([...ids]), g.store().nodesByObjectIds(ids)),
      nodeSummaries: (ids: readonly number[]) => g.store().nodeSummaries(ids),
      nodesByIds: (ids: readonly number[]) => g.store().nodesByIds(ids),
      edgesByTriples: (triples: readonly EdgeTriple[]) => g.store().edgesByTriples(triples),
    };
    return { asked, reads: cachedNodeReads(store, { epoch: 0, observe: () => undefined }) };
  }
  const scope = (requestId: string, deadline: number): RequestScope => ({
    requestId,
    deadline,
    signal: deadline <= Date.now() ? AbortSignal.abort() : new AbortController().signal,
  });

  beforeAll(() => g.load(['A', 'B', 'C'], []));

  it('go to the database as one query, each answered with its own node', async () => {
    const { asked, reads } = reader();
    const [a, b, missing] = await Promise.all([reads.nodeByObjectId('A'), reads.nodeByObjectId('B'), reads.nodeByObjectId('NOPE')]);
    expect([a?.objectid, b?.objectid, missing]).toEqual(['A', 'B', undefined]);
    expect(asked).toEqual([['A', 'B', 'NOPE']]);
    expect((await reads.nodeByObjectId('C'))?.objectid).toBe('C'); // asked alone: a query of its own
    expect(reads.nodeByObjectId('A')).toMatchObject({ objectid: 'A' }); // kept: a plain value, no query
    expect(asked).toEqual([['A', 'B', 'NOPE'], ['C']]);
  });

  it("are not cancelled by one request's passed deadline when another request's has not passed", async () => {
    const { asked, reads } = reader();
    const [a, b] = await Promise.all([
      runInScope(scope('late', Date.now() - 1), () => reads.nodeByObjectId('A')),
      runInScope(scope('live', Date.now() + 30_000), () => reads.nodeByObjectId('B')),
    ]);
    expect([a?.objectid, b?.objectid]).toEqual(['A', 'B']);
    expect(asked).toEqual([['A', 'B']]);
  });

  it('time out when every deadline among them has passed', async () => {
    const { reads } = reader();
    const read = runInScope(scope('late', Date.now() - 1), () => reads.nodeByObjectId('C'));
    await expect(read).rejects.toMatchObject({ status: 504 });
  });
});
