import type { EdgeInput, NodeInput, Properties } from '../../src/graph/model';
import type { GraphStore } from '../../src/graph/store';

/** A node of a test tenant: its object id and the short name tests refer to it by. */
export interface AzNode {
  objectid: string;
  name: string;
}

/**
 * Builds a small Entra tenant the way AzureHound's converters write it (ein/azure.go): every node is `AZBase` plus
 * its kind, carries `tenantid`, and the tenant AZContains its users, groups, service principals, apps, devices and
 * roles; roles carry `templateid`. Names are the short names tests assert on.
 */
export class AzureGraph {
  readonly nodes: NodeInput[] = [];
  readonly edges: EdgeInput[] = [];
  readonly tenant: AzNode;

  constructor(
    readonly tenantId = 'TENANT-1',
    tenantName = 'CONTOSO.TEST',
  ) {
    this.tenant = this.add(tenantId, 'tenant', ['AZBase', 'AZTenant'], { name: tenantName });
  }

  private add(objectid: string, name: string, kinds: string[], props: Properties = {}): AzNode {
    this.nodes.push({ objectid, kinds, properties: { name, tenantid: this.tenantId, ...props } });
    return { objectid, name };
  }

  /** A node the tenant contains. */
  contained(kind: string, name: string, props: Properties = {}): AzNode {
    const n = this.add(`${this.tenantId}-${name.toUpperCase()}`, name, ['AZBase', kind], props);
    this.edge(this.tenant, n, 'AZContains');
    return n;
  }

  user = (name: string, props: Properties = {}) => this.contained('AZUser', name, props);
  group = (name: string, props: Properties = {}) => this.contained('AZGroup', name, props);
  sp = (name: string, props: Properties = {}) => this.contained('AZServicePrincipal', name, props);
  app = (name: string, props: Properties = {}) => this.contained('AZApp', name, props);
  device = (name: string, os: string) => this.contained('AZDevice', name, { operatingsystem: os });
  role = (name: string, templateid: string, props: Properties = {}) =>
    this.contained('AZRole', name, { templateid, displayname: name, ...props });

  /** A node outside the tenant's containment (another tenant's principal, an AD user, …). */
  loose(objectid: string, name: string, kinds: string[], props: Properties = {}): AzNode {
    return this.add(objectid, name, kinds, props);
  }

  edge(from: AzNode, to: AzNode, kind: string, props: Properties = {}): this {
    this.edges.push({ start: from.objectid, end: to.objectid, kind, properties: props });
    return this;
  }

  hasRole = (principal: AzNode, role: AzNode) => this.edge(principal, role, 'AZHasRole');
  memberOf = (member: AzNode, group: AzNode) => this.edge(member, group, 'AZMemberOf');

  async save(store: GraphStore): Promise<void> {
    await store.write(async (w) => {
      await w.upsertNodes(this.nodes);
      await w.upsertEdges(this.edges);
    });
  }
}

/** The edges of `kinds` in the graph as `from -Kind-> to` by node name (object id where a node has none), sorted. */
export async function edgesByName(store: GraphStore, kinds: readonly string[]): Promise<string[]> {
  const edges = await store.edgesOfKinds(kinds);
  const nodes = await store.nodesByIds([...new Set(edges.flatMap((e) => [e.startId, e.endId]))]);
  const name = new Map(nodes.map((n) => [n.id, String(n.properties.name ?? n.objectid)]));
  return edges.map((e) => `${name.get(e.startId)} -${e.kind}-> ${name.get(e.endId)}`).sort();
}
