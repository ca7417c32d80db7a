import { seenByChild } from '../helpers/node-child';

/**
 * On the embedded PGlite `gas serve` runs, token principals are cached too (test/http/token-cache.test.ts covers
 * PostgreSQL): the session's notices are read from every answer its socket streams, so a change from any connection,
 * the server's own or another process's, empties the cache before its writer reads the commit's answer. Run in a
 * plain Node process (Jest's sandbox cannot load PGlite), in either test mode. Each case first shows the cache
 * answering: a token hidden with the triggers off (no notice) is still accepted.
 */
jest.setTimeout(120_000);

let seen: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  seen = await seenByChild('test/helpers/embedded-token-cache-child.ts');
});

const answering = { before: 200, hidden: 200 };

describe('token principals on the embedded database', () => {
  it('are kept between signed requests when the server reads its notices, and read every time when not', () => {
    expect(seen.cached).toEqual(answering);
    expect(seen.uncached).toEqual({ before: 200, hidden: 401 });
  });

  it('a token deleted through the API is refused on the next request', () => {
    expect(seen.deletedByApi).toEqual({ cached: answering, delete: 204, next: 401 });
  });

  it('a token deleted from another connection to the socket (no service involved) is refused on the very next request', () => {
    expect(seen.deletedByOtherConnection).toEqual({ cached: answering, next: 401 });
  });

  it('a delete rolled back on another connection changes nothing, and sends no notice (the cache still answers)', () => {
    expect(seen.deleteRolledBack).toEqual({ cached: answering, after: answering });
  });

  it('an owner disabled from another connection is refused next, and accepted once enabled', () => {
    expect(seen.ownerDisabledByOtherConnection).toEqual({
      cached: answering,
      disabled: { status: 401, message: 'Signed request rejected: the token owner is disabled.' },
      enabled: 200,
    });
  });

  it("a kept token is answered while another connection's transaction holds the session; its last use is written after", () => {
    expect(seen.touchBehindTransaction).toEqual({ during: 200, lastAccessMoved: true });
  });

  it('a last_access write that fails is logged, and the request it followed is still answered', () => {
    expect(seen.touchRefused).toEqual({ status: 200, logged: true });
  });

  it("are read every time again once a statement on the socket ended the session's LISTENs", () => {
    expect(seen.unlistened).toEqual({ cached: answering, after: { before: 200, hidden: 401 } });
  });

  it('a role changed from another connection takes effect on the next request', () => {
    expect(seen.roleChangedByOtherConnection).toEqual({ cached: answering, before: 200, after: 403 });
  });
});
