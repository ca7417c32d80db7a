import type { EdgeInput, NodeInput } from '../../src/graph/model';
import { HeldEdges } from '../../src/ingest/held-edges';

const node = (objectid: string, kind: string): NodeInput => ({ objectid, kinds: ['Base', kind], properties: {} });
const edge = (start: string, end: string, kind: string, startKind?: string, endKind?: string, properties = {}): EdgeInput => ({
  start,
  end,
  kind,
  properties,
  startKind,
  endKind,
});

describe('edges held to the end of a file', () => {
  it('holds an edge whose end, of a type the file holds, has not come yet, and nothing else', () => {
    const h = new HeldEdges();
    h.saw([node('U1', 'User')]);
    const toLater = edge('U2', 'U1', 'GenericAll', 'User', 'User');
    const toGroup = edge('G1', 'U1', 'GenericAll', 'Group', 'User'); // groups come in another file
    const own = edge('U1', 'G1', 'MemberOf', 'User', 'Group');
    const untyped = edge('X1', 'U1', 'Owns', undefined, 'User');
    expect([toLater, toGroup, own, untyped].map((e) => h.offer(e))).toEqual([true, false, false, false]);
    h.saw([node('U2', 'User')]);
    expect(h.offer(edge('U2', 'U3', 'GenericWrite', 'User', 'User'))).toBe(true); // U3 not seen yet
    expect(h.offer(edge('U1', 'U2', 'GenericWrite', 'User', 'User'))).toBe(false); // both seen
    expect(h.take()).toEqual({ edges: [toLater, edge('U2', 'U3', 'GenericWrite', 'User', 'User')], repeats: 0 });
    expect(h.take()).toEqual({ edges: [], repeats: 0 });
  });

  it('learns the types a file holds from its nodes (an AzureHound file holds many)', () => {
    const h = new HeldEdges();
    expect(h.offer(edge('A', 'B', 'AZMemberOf', 'AZUser', 'AZGroup'))).toBe(false); // no node yet: no type
    h.saw([node('G', 'AZGroup')]);
    expect(h.offer(edge('A', 'B', 'AZMemberOf', 'AZUser', 'AZGroup'))).toBe(true); // B is a group not seen
    h.saw([node('A', 'AZUser'), node('B', 'AZGroup')]);
    expect(h.offer(edge('A', 'B', 'AZOwns', 'AZUser', 'AZGroup'))).toBe(false);
  });

  it("merges a later edge with a held one's key into it, so the later of the two still wins", () => {
    const h = new HeldEdges();
    h.saw([node('OU2', 'OU')]);
    const first = Object.freeze(edge('OU1', 'OU2', 'Contains', 'OU', undefined, Object.freeze({ n: 1, a: 1 })));
    expect(h.offer(first)).toBe(true);
    h.saw([node('OU1', 'OU')]);
    const again = edge('OU1', 'OU2', 'Contains', 'OU', 'OU', { n: 2 }); // both ends seen now: merged as a repeat
    const other = edge('OU1', 'OU2', 'GenericAll', 'OU', 'OU');
    expect([h.offer(again), h.offer(other)]).toEqual([true, false]);
    expect(h.take()).toEqual({ edges: [edge('OU1', 'OU2', 'Contains', 'OU', 'OU', { n: 2, a: 1 })], repeats: 1 });
    expect(first.properties).toEqual({ n: 1, a: 1 }); // a shared (frozen) property set is never changed
  });

  it('holds an edge a file repeats a million times once', () => {
    const h = new HeldEdges();
    h.saw([node('U1', 'User')]);
    for (let i = 0; i < 1_000_000; i++) h.offer(edge('U2', 'U1', 'GenericAll', 'User', 'User', { i }));
    expect(h.take()).toEqual({ edges: [edge('U2', 'U1', 'GenericAll', 'User', 'User', { i: 999_999 })], repeats: 999_999 });
  });

  it('holds at most 100,000 edges; past that they go out as they come, repeats of held ones still merged in', () => {
    const h = new HeldEdges();
    h.saw([node('U0', 'User')]);
    let held = 0;
    for (let i = 1; i <= 100_000; i++) if (h.offer(edge(`P${i}`, 'U0', 'GenericAll', 'User', 'User'))) held++;
    expect(held).toBe(100_000);
    expect(h.offer(edge('P100001', 'U0', 'GenericAll', 'User', 'User'))).toBe(false);
    expect(h.offer(edge('P7', 'U0', 'GenericAll', 'User', 'User', { again: true }))).toBe(true);
    const taken = h.take();
    expect(taken.edges).toHaveLength(100_000);
    expect(taken.repeats).toBe(1);
    expect(taken.edges[6]).toEqual(edge('P7', 'U0', 'GenericAll', 'User', 'User', { again: true }));
  });
});
