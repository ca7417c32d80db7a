import fs from 'node:fs';
import { runAnalysis } from '../../src/analysis/run';
import { ingestPath } from '../../src/ingest/ingest-path';
import { dumpGraph, edgeKey, GOLDEN_SETS, OUR_ADDED_EDGE_KINDS } from '../helpers/fixtures';
import { useGraphDb } from '../helpers/graph';

/**
 * BloodHound's other golden graphs (graphify's Version6ADCSJSON, Version6AllJSON and Version5JSON): after ingest of
 * the raw files and analysis, the edges analysis added must be exactly those analyzed.json has and ingested.json
 * has not — none missing, none extra, none of the ingested ones removed. golden.test.ts compares Version6JSON whole.
 */
/** Nodes analysis adds for each domain (BloodHound's well-known principals); every other id is in the raw files. */
const ADDED_WELL_KNOWN = ['S-1-18-1', 'S-1-18-4', 'S-1-18-5', 'S-1-5-15', 'S-1-5-2', 'S-1-5-64-10', 'S-1-5-64-14', 'S-1-5-65-1'];

const kindOf = (key: string) => /-\[(\w+)\]->/.exec(key)![1]!;

describe.each(GOLDEN_SETS)('analysis against BloodHound golden graph $name', (set) => {
  const g = useGraphDb();
  const expected = (JSON.parse(fs.readFileSync(set.expected, 'utf8')) as { edges: [string, string, string][] }).edges;
  const expectedKeys = expected.map(([start, kind, end]) => edgeKey(start, end, kind));
  let ingested: Set<string>;
  let analysed: Set<string>;

  beforeAll(async () => {
    for (const f of set.files) expect({ file: f, errors: (await ingestPath(g.store(), f)).errors }).toEqual({ file: f, errors: [] });
    ingested = new Set((await dumpGraph(g.db())).edges.keys());
    await runAnalysis(g.store());
    analysed = new Set((await dumpGraph(g.db())).edges.keys());
  }, 120_000);

  it('every object id of the expected edges is in the raw files, or a well-known principal analysis adds', async () => {
    const raw = set.files.map((f) => fs.readFileSync(f, 'utf8').toUpperCase()).join('\n');
    const ids = new Set(expected.flatMap(([start, , end]) => [start, end]));
    expect(ids.size).toBeGreaterThan(90);
    const notInRaw = [...ids].filter((id) => !raw.includes(JSON.stringify(id.toUpperCase())));
    const domains = set.files
      .filter((f) => f.endsWith('domains.json'))
      .flatMap((f) => (JSON.parse(fs.readFileSync(f, 'utf8')) as { data: { Properties: { name?: string } }[] }).data)
      .map((d) => d.Properties.name)
      .filter((n): n is string => !!n);
    expect(domains).toHaveLength(1);
    expect(notInRaw.sort()).toEqual(ADDED_WELL_KNOWN.map((sid) => `${domains[0]}-${sid}`).sort());
    const nodes = (await dumpGraph(g.db())).nodes;
    expect([...ids].filter((id) => !nodes.has(id))).toEqual([]);
  });

  it('adds exactly the edges BloodHound adds, removing none', () => {
    const added = [...analysed].filter((k) => !ingested.has(k) && !OUR_ADDED_EDGE_KINDS.has(kindOf(k)));
    const want = new Set(expectedKeys);
    expect(expectedKeys.length).toBe(want.size);
    expect({
      missing: expectedKeys.filter((k) => !analysed.has(k) || ingested.has(k)).sort(),
      extra: added.filter((k) => !want.has(k)).sort(),
      removed: [...ingested].filter((k) => !analysed.has(k)).sort(),
    }).toEqual({ missing: [], extra: [], removed: [] });
  });
});
