import path from 'node:path';
import { ingestPath } from '../../src/ingest/ingest-path';
import { useIngestFiles } from '../helpers/ingest-files';
import { dumpGraph, SHARED_FIXTURES } from '../helpers/fixtures';

/** BloodHound's generic OpenGraph JSON: conversion, endpoint matching and the validation rules of its schemas. */
const MINIMAL = path.join(SHARED_FIXTURES, 'opengraph', 'minimal.json');

describe('OpenGraph ingest', () => {
  const f = useIngestFiles('gas-opengraph-');
  const { write, nodeCount } = f;

  it('ingests nodes and edges matched by id, name and property, edges before nodes', async () => {
    const r = await ingestPath(f.store(), MINIMAL);
    expect(r.errors).toEqual([]);
    expect(r.files[0]).toMatchObject({
      type: 'opengraph',
      objects: 8,
      nodes: 4,
      edges: 3,
      skipped: { 'edges skipped: endpoint matches no node': 1 },
    });
    const g = await dumpGraph(f.db());
    // metadata.source_kind is appended to every node's kinds, as BloodHound does.
    expect(g.nodes.get('USER-1')).toEqual({
      kinds: ['GH_Principal', 'GH_User', 'GitHub'],
      properties: expect.objectContaining({
        objectid: 'USER-1',
        primarykind: 'GH_User',
        emails: ['a@example.com', 'alice@example.com'],
        admin: false,
      }),
    });
    expect(g.nodes.get('ORG-1')!.kinds).toEqual(['GH_Organization', 'GitHub']);
    expect(await f.db().query('select name from graph_source_kinds order by id')).toEqual([
      { name: 'Base' },
      { name: 'AZBase' },
      { name: 'GitHub' },
    ]);
    expect([...g.edges.keys()].sort()).toEqual([
      'USER-1 -[GH_CanPush]-> REPO-1',
      'USER-1 -[GH_MemberOf]-> ORG-1',
      'USER-2 -[GH_Admin]-> REPO-1',
    ]);
    expect(g.edges.get('USER-1 -[GH_CanPush]-> REPO-1')).toMatchObject({ via: 'team', weight: 2 });
  });

  const node = (extra: Record<string, unknown> = {}) => ({ id: 'n-1', kinds: ['K'], properties: {}, ...extra });
  const edge = (extra: Record<string, unknown> = {}) => ({
    start: { value: 'a' },
    end: { value: 'b' },
    kind: 'K',
    properties: {},
    ...extra,
  });
  it.each([
    ['a node without kinds', { graph: { nodes: [{ id: 'x' }] } }, /nodes\[0\]\.kinds is required/],
    ['a node without id', { graph: { nodes: [{ kinds: ['K'] }] } }, /nodes\[0\]\.id is required/],
    ['an object property', { graph: { nodes: [node({ properties: { o: { a: 1 } } })] } }, /invalid property 'o': objects are not allowed/],
    ['an array holding objects', { graph: { nodes: [node({ properties: { a: [{}] } })] } }, /invalid property 'a': arrays must hold only/],
    ['a mixed array', { graph: { nodes: [node({ properties: { a: [1, 'x'] } })] } }, /array items must all be of one type/],
    ['a null property', { graph: { nodes: [node({ properties: { a: null } })] } }, /invalid property 'a': null is not allowed/],
    ['a reserved tag kind', { graph: { nodes: [node({ kinds: ['Tag_Tier_Zero'] })] } }, /reserved namespace 'tag'/],
    ['a mismatching objectid', { graph: { nodes: [node({ properties: { objectid: 'other' } })] } }, /does not match id/],
    [
      'an edge kind with a space',
      { graph: { edges: [edge({ kind: 'has session' })] } },
      /edges\[0\]\.kind is required and must contain only/,
    ],
    [
      'a property match with a value',
      {
        graph: {
          edges: [edge({ start: { match_by: 'property', value: 'x', property_matchers: [{ key: 'k', operator: 'equals', value: 1 }] } })],
        },
      },
      /"value" is not allowed/,
    ],
    [
      'a bad operator',
      { graph: { edges: [edge({ start: { match_by: 'property', property_matchers: [{ key: 'k', operator: 'like', value: 1 }] } })] } },
      /property_matchers\[0\]/,
    ],
    ['an unknown match_by', { graph: { edges: [edge({ end: { match_by: 'sid', value: 'x' } })] } }, /match_by must be one of/],
    ['extra metadata', { metadata: { source_kind: 'X', version: 1 }, graph: { nodes: [node()] } }, /additional property 'version'/],
    ['an empty graph', { graph: {} }, /graph tag is empty/],
    ['a graph that is not an object', { graph: [] }, /"graph" must be an object/],
    ['nodes that are not an array', { graph: { nodes: {} } }, /"graph.nodes" must be an array/],
    ['graph and meta together', { meta: { type: 'users' }, data: [], graph: { nodes: [] } }, /either "meta" and "data".*or "graph"/],
    ['metadata alone', { metadata: { source_kind: 'X' } }, /no graph tag found/],
  ])('refuses %s, naming the file and the element, writing nothing', async (_, body, message) => {
    const before = await nodeCount();
    const r = await ingestPath(f.store(), write('bad-graph.json', { ...body, graph: (body as { graph?: unknown }).graph }));
    expect(r.files).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toMatch(/^bad-graph\.json: /);
    expect(r.errors[0]!.message).toMatch(message);
    expect(await nodeCount()).toBe(before);
  });

  // BloodHound's schema requires only start, end and kind of an edge (the documented minimal example has no
  // edge properties); before, such files were refused whole.
  it("ingests BloodHound's documented minimal example whole, its edge without properties", async () => {
    const r = await ingestPath(f.store(), path.join(SHARED_FIXTURES, 'opengraph', 'bloodhound-minimal.json'));
    expect(r.errors).toEqual([]);
    expect(r.files[0]).toMatchObject({ type: 'opengraph', nodes: 2, edges: 1 });
    expect(r.files[0]!.skipped).toBeUndefined();
    const g = await dumpGraph(f.db());
    expect(g.nodes.get('123')).toMatchObject({ kinds: ['Base', 'Person'], properties: expect.objectContaining({ name: 'BOB' }) });
    expect(Object.keys(g.edges.get('123 -[Knows]-> 234')!)).toEqual(['lastseen']);
  });

  it('refuses a JSON file that is neither format, saying which formats are accepted', async () => {
    const r = await ingestPath(f.store(), write('other.json', { hello: 'world', items: [1, 2] }));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]!.message).toMatch(/^other\.json: no valid meta tag found: the file is neither a collector file/);
    expect(r.errors[0]!.message).toMatch(/nor an OpenGraph file/);
  });

  it('reports at most 15 problems, and refuses the whole file', async () => {
    const nodes = Array.from({ length: 40 }, (_, i) => ({ id: `bad-${i}` }));
    const r = await ingestPath(f.store(), write('many.json', { graph: { nodes } }));
    expect(r.errors[0]!.message.match(/kinds is required/g)).toHaveLength(15);
  });
});
