import { runAnalysis } from '../../src/analysis/run';
import { PgGraphStore } from '../../src/graph/pg/store';
import type { Database } from '../../src/db/pool';
import { useGraphDb } from '../helpers/graph';

/**
 * A small graph for one analysis rule: nodes as [objectid, kind, properties], edges as "start Kind end" — the
 * notation of the harness drawings and of what `analyse` answers, so a scenario's input and its expected edges
 * read alike (object ids hold no spaces); an edge with properties as ["start Kind end", properties].
 */
export interface SmallGraph {
  nodes: [string, string, Record<string, unknown>?][];
  edges: (string | [string, Record<string, unknown>])[];
}

/** Several parts (a PKI chain, a domain, a scenario's own nodes) as one graph. */
export const merge = (...parts: SmallGraph[]): SmallGraph => ({
  nodes: parts.flatMap((p) => p.nodes),
  edges: parts.flatMap((p) => p.edges),
});

/** Nodes of one kind in the domain `domainsid`, by object id: `inDomain(D).users('ALICE', 'BOB')`. */
export function inDomain(domainsid: string) {
  const of =
    (kind: string) =>
    (...names: string[]): SmallGraph['nodes'] =>
      names.map((n) => [n, kind, { domainsid }]);
  return { users: of('User'), groups: of('Group'), computers: of('Computer') };
}

/** "start Kind end" as its three parts; anything else is a mistake in the test, not an edge. */
function parseEdge(edge: string): { start: string; kind: string; end: string } {
  const parts = edge.split(' ');
  if (parts.length !== 3 || parts.some((p) => !p)) throw new Error(`test edge "${edge}" is not "start Kind end"`);
  const [start, kind, end] = parts as [string, string, string];
  return { start, kind, end };
}

/**
 * The analysis scenarios of one test file on a fresh database (made before its tests, dropped after them). Each
 * `analyse` replaces the whole graph, so scenarios do not see each other.
 */
export function useAnalysis() {
  const g = useGraphDb();
  return {
    db: () => g.db(),
    /** Replaces the graph with `graph`, runs analysis, and returns the derived edges of `kinds` as "start Kind end". */
    analyse: (graph: SmallGraph, kinds: string[]) => analyse(g.db(), graph, kinds),
  };
}

export async function analyse(db: Database, graph: SmallGraph, kinds: string[]): Promise<string[]> {
  await load(db, graph);
  await runAnalysis(new PgGraphStore(db));
  return derived(db, kinds);
}

export async function load(db: Database, graph: SmallGraph): Promise<void> {
  const store = new PgGraphStore(db);
  const existing = (await db.query<{ objectid: string }>('select objectid from graph_nodes')).map((r) => r.objectid);
  await store.write(async (w) => {
    await w.deleteNodes(existing);
    await w.upsertNodes(
      graph.nodes.map(([objectid, kind, props]) => ({
        objectid,
        kinds: ['Base', kind],
        properties: { objectid, name: objectid, ...props },
      })),
    );
    await w.upsertEdges(
      graph.edges.map((e) => (typeof e === 'string' ? { ...parseEdge(e), properties: {} } : { ...parseEdge(e[0]), properties: e[1] })),
    );
  });
}

export async function derived(db: Database, kinds: string[]): Promise<string[]> {
  const store = new PgGraphStore(db);
  const edges = await store.edgesOfKinds(kinds);
  const ids = new Map(
    (await db.query<{ id: number; objectid: string }>('select id, objectid from graph_nodes')).map((r) => [Number(r.id), r.objectid]),
  );
  return edges.map((e) => `${ids.get(e.startId)} ${e.kind} ${ids.get(e.endId)}`).sort();
}

/**
 * The PKI chain every ESC harness draws: domain <- RootCA{n} <- EnterpriseCA{n} -> NTAuthStore{n} -> domain, with
 * `caProps` the CA's drawn flags. IssuedSignedBy and TrustedForNTAuth are derived in a whole run, from the CA's
 * certificate chain and the store's thumbprints, so a harness that leaves one out overrides those properties. The
 * harnesses do not always draw a host; our ESC rules (like BloodHound's) need the CA service hosted, so Host{n} hosts it.
 */
export const adcsChain = (domain: string, caProps: Record<string, unknown> = {}, n = '1'): SmallGraph => ({
  nodes: [
    [domain, 'Domain', { domainsid: domain }],
    [`EnterpriseCA${n}`, 'EnterpriseCA', { domainsid: domain, certthumbprint: `E${n}`, certchain: [`E${n}`, `R${n}`], ...caProps }],
    [`RootCA${n}`, 'RootCA', { domainsid: domain, certthumbprint: `R${n}`, certchain: [`R${n}`] }],
    [`NTAuthStore${n}`, 'NTAuthStore', { domainsid: domain, certthumbprints: [`E${n}`] }],
    ...inDomain(domain).computers(`Host${n}`),
  ],
  edges: [
    `RootCA${n} RootCAFor ${domain}`,
    `EnterpriseCA${n} IssuedSignedBy RootCA${n}`,
    `EnterpriseCA${n} TrustedForNTAuth NTAuthStore${n}`,
    `NTAuthStore${n} NTAuthStoreFor ${domain}`,
    `Host${n} HostsCAService EnterpriseCA${n}`,
  ],
});

/** `graph` with `props` merged into the properties of node `name`. */
export const withProps = (graph: SmallGraph, name: string, props: Record<string, unknown>): SmallGraph => ({
  nodes: graph.nodes.map((x) => (x[0] === name ? [x[0], x[1], { ...x[2], ...props }] : x)),
  edges: graph.edges,
});

/** Properties the Go harnesses set on every template besides the drawn ones (BloodHound skips a template missing one). */
export const CERT_TEMPLATE = {
  requiresmanagerapproval: false,
  authenticationenabled: true,
  enrolleesuppliessubject: false,
  schemaversion: 2,
  authorizedsignatures: 0,
  subjectaltrequiredns: false,
  subjectaltrequiredomaindns: false,
  subjectaltrequireupn: false,
  subjectaltrequirespn: false,
  nosecurityextension: false,
};

/** Cert templates by name, each the harness defaults plus its own drawn properties. */
export const templates = (spec: Record<string, Record<string, unknown>>): SmallGraph['nodes'] =>
  Object.entries(spec).map(([name, props]) => [name, 'CertTemplate', { ...CERT_TEMPLATE, ...props }]);

/**
 * Domain i of the ESC9/ESC10 "DC" harnesses: its own PKI chain, CertTemplatei (harness defaults plus `template`)
 * published to EnterpriseCAi, a victim (User or Computer i) enrolling on both, Groupi with GenericAll on the victim,
 * and domain controllers DCi-j with the drawn registry values.
 */
export function victimDomain(
  i: number,
  template: Record<string, unknown>,
  dcs: Record<string, unknown>[],
  victimKind = 'User',
): SmallGraph {
  const d = `Domain${i}`;
  const victim = `${victimKind}${i}`;
  return merge(adcsChain(d, {}, String(i)), {
    nodes: [
      ...templates({ [`CertTemplate${i}`]: template }),
      [victim, victimKind, { domainsid: d }],
      [`Group${i}`, 'Group', { domainsid: d }],
      ...dcs.map((p, j): SmallGraph['nodes'][number] => [`DC${i}-${j}`, 'Computer', { domainsid: d, isdc: true, ...p }]),
    ],
    edges: [
      `CertTemplate${i} PublishedTo EnterpriseCA${i}`,
      `${victim} Enroll EnterpriseCA${i}`,
      `${victim} Enroll CertTemplate${i}`,
      `Group${i} GenericAll ${victim}`,
      ...dcs.map((_, j) => `DC${i}-${j} DCFor ${d}`),
    ],
  });
}
