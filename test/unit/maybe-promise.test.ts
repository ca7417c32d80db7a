import { RevocableCache } from '../../src/auth/revocable-cache';
import { whenReady } from '../../src/maybe-promise';

describe('whenReady', () => {
  it('goes on at once with a plain value, and returns a plain value', () => {
    const seen: number[] = [];
    const out = whenReady(2, (v) => (seen.push(v), v * 10));
    expect(out).toBe(20);
    expect(seen).toEqual([2]); // before any turn of the event loop
  });

  it('waits for a promise and returns one', async () => {
    const out = whenReady(Promise.resolve(3), (v) => v + 1);
    expect(out).toBeInstanceOf(Promise);
    await expect(out).resolves.toBe(4);
  });

  it('waits for a thenable that is not a native promise', async () => {
    const thenable = { then: (resolve: (v: number) => void) => resolve(5) } as unknown as Promise<number>;
    const out = whenReady(thenable, (v) => v * 2);
    expect(out).toBeInstanceOf(Promise);
    await expect(out).resolves.toBe(10);
  });

  it('throws a plain throw on the plain path and rejects on the promise path', async () => {
    const boom = () => {
      throw new Error('boom');
    };
    expect(() => whenReady(1, boom)).toThrow('boom');
    await expect(whenReady(Promise.resolve(1), boom)).rejects.toThrow('boom');
    await expect(whenReady(Promise.reject(new Error('first')), () => 1)).rejects.toThrow('first');
  });
});

describe('RevocableCache.get', () => {
  it('answers a kept entry as a plain value and a load as a promise', async () => {
    const cache = new RevocableCache<string>();
    cache.setLive(true);
    const loaded = cache.get('k', async () => 'v');
    expect(loaded).toBeInstanceOf(Promise);
    expect(await loaded).toBe('v');
    expect(cache.get('k', async () => 'other')).toBe('v');
  });

  it('loads every time while not live, and after an invalidation', async () => {
    const cache = new RevocableCache<string>();
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get('k', load)).toBe('v1');
    expect(await cache.get('k', load)).toBe('v2'); // not live: nothing kept
    cache.setLive(true);
    expect(await cache.get('k', load)).toBe('v3');
    expect(cache.get('k', load)).toBe('v3');
    cache.invalidate();
    expect(await cache.get('k', load)).toBe('v4');
  });

  it('does not keep a load that a notice overtook', async () => {
    const cache = new RevocableCache<string>();
    cache.setLive(true);
    let release!: (v: string) => void;
    const pending = cache.get('k', () => new Promise<string>((r) => (release = r)));
    cache.invalidate();
    release('stale');
    expect(await pending).toBe('stale');
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });
});
