import { EdgePropertyPool, Out } from '../../../src/ingest/sharphound-out';
import { SharpHoundConverter } from '../../../src/ingest/sharphound';
import { mergeEdges } from '../../../src/graph/pg/merge';

describe('edge property pool', () => {
  it('shares one frozen object per repeated set of plain values, and leaves sets holding objects alone', () => {
    const pool = new EdgePropertyPool();
    const a = pool.intern({ isacl: true, isinherited: false, lastseen: 't' });
    const b = pool.intern({ isacl: true, isinherited: false, lastseen: 't' });
    const c = pool.intern({ isacl: true, isinherited: true, lastseen: 't' });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    const withArray = { isacl: true, privileges: ['x'] };
    expect(pool.intern(withArray)).toBe(withArray);
    expect(Object.isFrozen(withArray)).toBe(false);
  });

  it("keeps no set with a long value: a hostile file's values must not outlive their batch", () => {
    const pool = new EdgePropertyPool();
    const long = () => ({ isacl: true, inheritancehash: 'x'.repeat(1024 * 1024) });
    const a = pool.intern(long());
    const b = pool.intern(long());
    expect(b).not.toBe(a);
    expect(Object.isFrozen(a)).toBe(false);
    const hash = () => ({ isacl: true, inheritancehash: 'f'.repeat(40), lastseen: '2026-01-01T00:00:00.000Z' });
    expect(pool.intern(hash())).toBe(pool.intern(hash())); // a real inheritance hash is pooled
  });

  it('stamps lastseen before sharing, so edges of different ingest times never share', () => {
    const pool = new EdgePropertyPool();
    const one = new Out('2026-01-01T00:00:00.000Z', pool);
    const two = new Out('2026-02-01T00:00:00.000Z', pool);
    one.edge('A', 'B', 'GenericAll', { isacl: true });
    two.edge('A', 'B', 'GenericAll', { isacl: true });
    one.edge('A', 'C', 'GenericAll', { isacl: true });
    expect(one.edges[0]!.properties).toEqual({ isacl: true, lastseen: '2026-01-01T00:00:00.000Z' });
    expect(two.edges[0]!.properties).toEqual({ isacl: true, lastseen: '2026-02-01T00:00:00.000Z' });
    expect(one.edges[1]!.properties).toBe(one.edges[0]!.properties);
  });

  it('a shared set is never changed by merging repeated edges', () => {
    const convert = new SharpHoundConverter('2026-01-01T00:00:00.000Z');
    const ace = (right: string, inherited: boolean) => ({
      PrincipalSID: 'S-1-5-21-1-512',
      PrincipalType: 'Group',
      RightName: right,
      IsInherited: inherited,
    });
    const item = (sid: string) => ({
      ObjectIdentifier: sid,
      Properties: { domain: 'X.LOCAL' },
      Aces: [ace('GenericAll', false), ace('GenericAll', true)],
    });
    const edges = [...convert.convert('users', item('S-1-5-21-1-1001')).edges, ...convert.convert('users', item('S-1-5-21-1-1002')).edges];
    const acl = edges.filter((e) => e.kind === 'GenericAll');
    expect(acl).toHaveLength(4);
    const shared = acl[0]!.properties;
    expect(acl.filter((e) => e.properties === shared).length).toBeGreaterThan(1);
    const merged = mergeEdges(acl).filter((e) => e.end === 'S-1-5-21-1-1001');
    expect(merged).toHaveLength(1);
    expect(merged[0]!.properties.isinherited).toBe(true); // the later ACE's properties win
    expect(shared.isinherited).toBe(false); // the shared set itself is untouched
    expect(Object.isFrozen(shared)).toBe(true);
  });

  it("tells apart sets that differ only in a value's type or in their order, as their JSON text does", () => {
    const pool = new EdgePropertyPool();
    const bool = pool.intern({ isacl: true, port: 1 });
    expect(pool.intern({ isacl: 'true', port: 1 })).not.toBe(bool);
    expect(pool.intern({ isacl: true, port: '1' })).not.toBe(bool);
    expect(pool.intern({ port: 1, isacl: true })).not.toBe(bool);
    expect(pool.intern({ isacl: true })).not.toBe(bool); // a prefix of a kept set is a set of its own
    expect(pool.intern({ isacl: true, port: 1, extra: null })).not.toBe(bool);
    expect(pool.intern({ isacl: true, port: 1 })).toBe(bool);
  });

  it('keeps no set with more properties than real ones have, and starts over past its bound', () => {
    const pool = new EdgePropertyPool();
    const wide = () => Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i]));
    expect(pool.intern(wide())).not.toBe(pool.intern(wide()));
    const first = pool.intern({ isacl: true, n: -1 });
    for (let n = 0; n < 4095; n++) pool.intern({ isacl: true, n });
    expect(pool.intern({ isacl: true, n: -1 })).toBe(first); // 4,096 sets kept: still there
    pool.intern({ isacl: true, n: 4095 }); // the 4,097th: the pool starts over with it
    const again = pool.intern({ isacl: true, n: -1 });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
