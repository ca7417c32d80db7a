import fs from 'node:fs';
import path from 'node:path';
import type { Queryable } from '../../src/db/pool';

/** Vendored copies of ../shared/fixtures (see test/fixtures/README.md), so a fresh checkout tests on its own. */
export const SHARED_FIXTURES = path.resolve(__dirname, '..', 'fixtures');
export const TESTLAB = path.join(SHARED_FIXTURES, 'sharphound-v6-testlab');
export const GRAPHIFY = path.join(SHARED_FIXTURES, 'graphify-v6');
export const AZUREHOUND = path.join(SHARED_FIXTURES, 'azurehound');

/** What azurehound/unknown-and-malformed.json holds that nothing converts, as ingest counts it (kind → records). */
export const AZURE_UNKNOWN_KINDS = {
  AZStorageAccount: 1,
  AZStorageContainer: 1,
  AZOAuth2PermissionGrant: 1,
  AZGroup365: 1,
  'AZUser (no object id)': 1,
  'AZGroup (no "data" object)': 1,
  '(no kind) (not a {kind, data} record)': 2,
};

/** The input that produces BloodHound's graphify golden graphs (fixtures README). */
export const GOLDEN_INPUT = [
  path.join(GRAPHIFY, 'raw', 'gpos.json'),
  path.join(GRAPHIFY, 'raw', 'ous.json'),
  path.join(GRAPHIFY, 'raw', 'users.json'),
  ...['computers', 'containers', 'domains', 'groups', 'sessions'].map((f) => path.join(TESTLAB, `${f}.json`)),
];

/**
 * Derived kinds we add that BloodHound's golden graphs lack: BloodHound works GPO application out at query time, we
 * store it (docs/decisions.md, "Golden differences").
 */
export const OUR_ADDED_EDGE_KINDS = new Set(['GPOAppliesTo', 'CanApplyGPO']);

/** A golden set of BloodHound's graphify tests other than Version6JSON: its raw input and the edges its analysis adds. */
export interface GoldenSet {
  name: string;
  files: string[];
  /** bloodhound-expected/<name>-analysis-edges.json: analyzed.json's edges that ingested.json lacks. */
  expected: string;
}

const V6_ALL = path.join(SHARED_FIXTURES, 'sharphound-v6-all');
const inDir = (dir: string, names: string[]) => names.map((f) => path.join(SHARED_FIXTURES, dir, `${f}.json`));
const ADCS_RAW = inDir('graphify-v6-adcs/raw', ['certtemplates', 'computers', 'containers', 'issuancepolicies', 'users']);
const ESC1_SHARED = ['aiacas', 'enterprisecas', 'gpos', 'groups', 'ntauthstores', 'rootcas'].map((f) => path.join(V6_ALL, `${f}.json`));
const expectedOf = (name: string) => path.join(SHARED_FIXTURES, 'bloodhound-expected', `${name}-analysis-edges.json`);

/**
 * Version6ADCSJSON, Version6AllJSON and Version5JSON: each raw file is either in the set's own folder or a
 * byte-identical copy of it elsewhere in test/fixtures (fixtures README).
 */
export const GOLDEN_SETS: GoldenSet[] = [
  {
    name: 'graphify-v6-adcs',
    files: [...ADCS_RAW, ...ESC1_SHARED, ...['domains', 'ous'].map((f) => path.join(V6_ALL, `${f}.json`))],
    expected: expectedOf('graphify-v6-adcs'),
  },
  {
    name: 'graphify-v6-all',
    files: [...ADCS_RAW, ...ESC1_SHARED, ...inDir('graphify-v6-all/raw', ['domains', 'ous'])],
    expected: expectedOf('graphify-v6-all'),
  },
  {
    name: 'graphify-v5',
    files: [
      ...inDir('graphify-v5/raw', ['containers', 'domains', 'gpos', 'ous', 'users']),
      ...inDir('sharphound-v5-testlab', ['computers', 'groups', 'sessions']),
    ],
    expected: expectedOf('graphify-v5'),
  },
];

/**
 * The list counts of TESTLAB's DFM user (`…-1105`) after GOLDEN_INPUT is ingested and analysed, computed
 * independently from BloodHound's analyzed graph; the user endpoint and the GraphQL entity both answer them.
 */
export const GOLDEN_DFM_COUNTS = {
  sessions: 1,
  groupMembership: 4,
  adminRights: 1,
  rdpRights: 1,
  backupRights: 0,
  dcomRights: 1,
  psRemoteRights: 1,
  sqlAdmin: 1,
  constrainedDelegation: 1,
  controllables: 2,
  controllers: 7,
  gpos: 0,
} as const;

/** Every file of the TESTLAB collection, deleted.json included (a collector uploads them all). */
export const TESTLAB_ALL_FILES = fs.readdirSync(TESTLAB).map((f) => path.join(TESTLAB, f));

/** Every TESTLAB file (the sessions file included). */
export const TESTLAB_FILES = fs
  .readdirSync(TESTLAB)
  .filter((f) => f.endsWith('.json') && f !== 'deleted.json')
  .map((f) => path.join(TESTLAB, f));

export interface GoldenGraph {
  nodes: Map<string, { kinds: string[]; properties: Record<string, unknown> }>;
  edges: Map<string, Record<string, unknown>>;
}

export const edgeKey = (start: string, end: string, kind: string) => `${start} -[${kind}]-> ${end}`;

/** A BloodHound golden graph: graphify's (by name) or another fixture's, by path. */
export function loadGolden(file: 'ingest/ingested.json' | 'analysis/analyzed.json' | { path: string }): GoldenGraph {
  const { graph } = JSON.parse(fs.readFileSync(typeof file === 'string' ? path.join(GRAPHIFY, file) : file.path, 'utf8'));
  return {
    nodes: new Map(
      graph.nodes.map((n: { id: string; kinds: string[]; properties: Record<string, unknown> }) => [
        n.id,
        { kinds: [...n.kinds].sort(), properties: n.properties },
      ]),
    ),
    edges: new Map(
      graph.edges.map((e: { start: { value: string }; end: { value: string }; kind: string; properties: Record<string, unknown> }) => [
        edgeKey(e.start.value, e.end.value, e.kind),
        e.properties,
      ]),
    ),
  };
}

/** The whole graph as stored, in the golden files' terms (object ids, kind names). */
export async function dumpGraph(db: Queryable): Promise<GoldenGraph> {
  const nodes = await db.query<{ objectid: string; kinds: string[]; properties: Record<string, unknown> }>(
    `select n.objectid, array(select k.name from graph_kinds k where k.id = any(n.kind_ids) order by k.name) as kinds, n.properties from graph_nodes n`,
  );
  const edges = await db.query<{ s: string; t: string; kind: string; properties: Record<string, unknown> }>(
    `select s.objectid as s, t.objectid as t, k.name as kind, e.properties
     from graph_edges e join graph_nodes s on s.id = e.start_id join graph_nodes t on t.id = e.end_id join graph_kinds k on k.id = e.kind_id`,
  );
  return {
    nodes: new Map(nodes.map((n) => [n.objectid, { kinds: n.kinds, properties: n.properties }])),
    edges: new Map(edges.map((e) => [edgeKey(e.s, e.t, e.kind), e.properties])),
  };
}

/** A node's kind names, sorted; undefined when no node has this object id. */
export async function kindsOf(db: Queryable, objectid: string): Promise<string[] | undefined> {
  const rows = await db.query<{ kinds: string[] }>(
    'select array(select k.name from graph_kinds k where k.id = any(n.kind_ids) order by k.name) as kinds from graph_nodes n where objectid = $1',
    [objectid],
  );
  return rows[0]?.kinds;
}

/** Properties compared with the golden files: timestamps of the run are ignored. */
export function comparable(p: Record<string, unknown>): Record<string, unknown> {
  const { lastseen: _a, lastcollected: _b, ...rest } = p;
  return rest;
}
