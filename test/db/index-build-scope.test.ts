import { GraphIndexHolder } from '../../src/services/graph/graph-index-holder';
import { runInScope, type RequestScope } from '../../src/scope';
import { testLog } from '../helpers/db';
import { useGraphDb } from '../helpers/graph';

/**
 * The path index is rebuilt for every request waiting on it, so the rebuild belongs to none of them: a build started
 * by a request whose client went away (or whose Prefer deadline passed) must not fail the others with that request's
 * 504. Found by the fuzz run: a GET answered "took longer than its deadline" after 3 s under a 30 s deadline.
 */
describe('path index rebuilds outside the request that started them', () => {
  const g = useGraphDb();

  it("answers a second caller when the build's first caller is gone", async () => {
    await g.load(
      ['a', 'b', 'c'],
      [
        ['a', 'b', 'MemberOf'],
        ['b', 'c', 'AdminTo'],
      ],
    );
    const holder = new GraphIndexHolder(g.store(), { checkIntervalMs: 0, log: testLog() });
    // A request whose client has already gone: its scope is aborted, so any statement it runs is refused.
    const gone = new AbortController();
    gone.abort();
    const departed: RequestScope = { requestId: 'departed', deadline: Date.now() + 30_000, signal: gone.signal };
    const first = runInScope(departed, () => Promise.resolve(holder.current()));
    const second = Promise.resolve(holder.current());
    const [a, b] = await Promise.allSettled([first, second]);
    expect(b).toMatchObject({ status: 'fulfilled' });
    expect(a).toMatchObject({ status: 'fulfilled' });
    expect((b as PromiseFulfilledResult<{ nodeCount: number }>).value.nodeCount).toBe(3);
  });
});
