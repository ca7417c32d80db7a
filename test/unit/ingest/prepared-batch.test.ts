import type { EdgeInput, NodeInput } from '../../../src/graph/model';
import { prepareBatch, SLICE_ROWS, transferList } from '../../../src/graph/prepared';

/**
 * A prepared batch is what crosses from the conversion worker to the writer: merged rows as strings and typed
 * arrays, kinds by index. What it holds must decode to exactly the merged rows.
 */
describe('prepared batches', () => {
  const shared = Object.freeze({ isacl: false, lastseen: '2026-11-27T00:00:00Z' });
  const edge = (start: string, end: string, kind: string, properties: Record<string, unknown> = shared, kinds: Partial<EdgeInput> = {}) =>
    ({ start, end, kind, properties, ...kinds }) as EdgeInput;

  it('merges nodes by object id (kinds unioned, later properties winning) with kinds by index', async () => {
    const nodes: NodeInput[] = [
      { objectid: 'A', kinds: ['Base', 'User'], properties: { name: 'a', x: 1 } },
      { objectid: 'B', kinds: ['Base', 'Group'], properties: { name: 'b' } },
      { objectid: 'A', kinds: ['Base', 'Tag_Tier_Zero'], properties: { x: 2 } },
    ];
    const b = await prepareBatch(nodes, undefined);
    expect(b.edges).toEqual([]);
    expect(b.nodes).toHaveLength(1);
    const [slice] = b.nodes;
    expect(slice!.objectids).toEqual(['A', 'B']);
    expect(slice!.kinds.map((k) => k.split(',').map((i) => b.kinds[Number(i)]))).toEqual([
      ['Base', 'User', 'Tag_Tier_Zero'],
      ['Base', 'Group'],
    ]);
    expect(slice!.properties.map((p) => JSON.parse(p))).toEqual([{ name: 'a', x: 2 }, { name: 'b' }]);
  });

  it('encodes edges by endpoint index, merges repeats, keeps the most specific endpoint kinds and shares property sets', async () => {
    const edges = [
      edge('U1', 'G1', 'MemberOf', shared, { startKind: 'User', endKind: 'Group' }),
      edge('U2', 'G1', 'MemberOf', shared, { endKind: undefined }),
      edge('U1', 'G1', 'MemberOf', { isacl: false, extra: 'yes' }),
      edge('G1', 'AZ1', 'AZMemberOf', { lastseen: 7 }, { startKind: 'Base', endKind: 'AZGroup' }),
    ];
    const b = await prepareBatch(undefined, edges);
    expect(b.nodes).toEqual([]);
    const [s] = b.edges;
    const ep = s!.endpoints;
    const rows = Array.from(s!.start, (_, j) => ({
      start: ep.objectids[s!.start[j]!],
      end: ep.objectids[s!.end[j]!],
      kind: b.kinds[s!.kind[j]!],
      props: JSON.parse(s!.propTexts[s!.props[j]!]!),
    }));
    expect(rows).toEqual([
      { start: 'U1', end: 'G1', kind: 'MemberOf', props: { ...shared, extra: 'yes' } },
      { start: 'U2', end: 'G1', kind: 'MemberOf', props: shared },
      { start: 'G1', end: 'AZ1', kind: 'AZMemberOf', props: { lastseen: 7 } },
    ]);
    const kindsOf = (o: string) =>
      ep.kinds[ep.objectids.indexOf(o)]!.split(',')
        .map((i) => b.kinds[Number(i)])
        .sort();
    expect(kindsOf('U1')).toEqual(['Base', 'User']);
    expect(kindsOf('U2')).toEqual(['Base']);
    expect(kindsOf('G1')).toEqual(['Base', 'Group']);
    expect(kindsOf('AZ1')).toEqual(['AZBase', 'AZGroup']);
    // lastseen as text, the first edge's; the frozen set is encoded once
    expect(ep.seen[ep.objectids.indexOf('U2')]).toBe(shared.lastseen);
    expect(ep.seen[ep.objectids.indexOf('AZ1')]).toBe('7');
    expect(s!.propTexts.filter((t) => t === JSON.stringify(shared))).toHaveLength(1);
  });

  it('cuts large batches into slices, each with its own endpoints, and lists their buffers for transfer', async () => {
    const edges = Array.from({ length: SLICE_ROWS + 10 }, (_, i) => edge(`S${i}`, 'HUB', 'GenericAll'));
    let pauses = 0;
    const b = await prepareBatch(undefined, edges, async () => void pauses++);
    expect(b.edges.map((s) => s.start.length)).toEqual([SLICE_ROWS, 10]);
    expect(b.edges.map((s) => s.endpoints.objectids.length)).toEqual([SLICE_ROWS + 1, 11]);
    expect(pauses).toBeGreaterThan(0);
    expect(transferList(b)).toHaveLength(8);
  });

  it('bounds property values as every writer does', async () => {
    const huge = 'x'.repeat(2 * 1024 * 1024);
    const b = await prepareBatch([{ objectid: 'A', kinds: ['Base'], properties: { big: huge } }], [edge('A', 'B', 'Owns', { big: huge })]);
    expect(JSON.parse(b.nodes[0]!.properties[0]!).big).toMatch(/^\[value of \d+ bytes omitted/);
    expect(JSON.parse(b.edges[0]!.propTexts[0]!).big).toMatch(/^\[value of \d+ bytes omitted/);
  });
});
