import type { GraphEdge, NodeInput, Properties } from '../graph/model.js';
import { nextTurn } from '../next-turn.js';
import type { GraphStore } from '../graph/store.js';
import { AZURE_ANALYSIS_EDGE_KINDS, AZURE_ANALYSIS_PROPERTIES } from './steps/azure/kinds.js';

/** Items a long loop of analysis handles between two turns (~2-20 ms of work at tier M). */
export const EDGES_PER_TURN = 1 << 12;
/** A counter for a long loop: true every EDGES_PER_TURN calls, when the loop should `await nextTurn()`. */
export function turnDue(): () => boolean {
  let n = 0;
  return () => ++n % EDGES_PER_TURN === 0;
}

export interface ANode {
  id: number;
  objectid: string;
  kinds: Set<string>;
  props: Properties;
}

/** Node properties analysis rules read. */
export const ANALYSIS_PROPERTIES = [
  'name',
  'domain',
  'domainsid',
  'collected',
  'blocksinheritance',
  'haslaps',
  'hasura',
  'dsheuristics',
  'isdc',
  'certthumbprint',
  'certthumbprints',
  'certchain',
  'enrolleesuppliessubject',
  'authenticationenabled',
  'requiresmanagerapproval',
  'authorizedsignatures',
  'schemaversion',
  'gmsa',
  'msa',
  'system_tags',
  // ADCS
  'effectiveekus',
  'applicationpolicies',
  'certificatepolicy',
  'certtemplateoid',
  'isuserspecifiessanenabled',
  'isuserspecifiessanenabledcollected',
  'hasenrollmentagentrestrictions',
  'enrollmentagentrestrictionscollected',
  'nosecurityextension',
  'schannelauthenticationenabled',
  'subjectaltrequiredns',
  'subjectaltrequiredomaindns',
  'subjectaltrequireupn',
  'subjectaltrequirespn',
  'strongcertificatebindingenforcementraw',
  'certificatemappingmethodsraw',
  // Tier Zero selectors
  'distinguishedname',
  'samaccountname',
  // ProtectAdminGroups, HasTrustKeys
  'adminsdholderprotected',
  'netbios',
  // NTLM relay
  'smbsigning',
  'restrictoutboundntlm',
  'webclientrunning',
  'ldapsigning',
  'ldapavailable',
  'ldapsavailable',
  'ldapsepa',
  'functionallevel',
  'hasvulnerableendpoint',
  ...AZURE_ANALYSIS_PROPERTIES,
];

/** Edge kinds analysis rules read (raw inputs of the post-processed edges). */
export const ANALYSIS_EDGE_KINDS = [
  'MemberOf',
  'MemberOfLocalGroup',
  'LocalToComputer',
  'RemoteInteractiveLogonRight',
  'GetChanges',
  'GetChangesAll',
  'GetChangesInFilteredSet',
  'OwnsRaw',
  'WriteOwnerRaw',
  'GPLink',
  'Contains',
  'WriteGPLink',
  'GenericAll',
  'GenericWrite',
  'WriteDacl',
  'AllExtendedRights',
  'Enroll',
  'PublishedTo',
  'HostsCAService',
  'RootCAFor',
  'NTAuthStoreFor',
  'WritePKINameFlag',
  'WritePKIEnrollmentFlag',
  'OIDGroupLink',
  'DCFor',
  'SameForestTrust',
  'DelegatedEnrollmentAgent',
  'CrossForestTrust',
  // Tier Zero expansion: eligible role holders are tier zero, and so is the app a tier-zero service principal runs as.
  'AZRoleEligible',
  'AZRunsAs',
  ...AZURE_ANALYSIS_EDGE_KINDS,
];

/**
 * The edge kinds whose properties analysis rules read (GPLink's enforced, the ACE flags Owns and WriteOwner carry
 * on). Edges of the other kinds are loaded with an empty frozen object instead: a rule that starts reading another
 * kind's properties must add it here.
 */
export const ANALYSIS_EDGE_PROPERTIES_OF = ['GPLink', 'OwnsRaw', 'WriteOwnerRaw'];

/**
 * The part of the graph analysis works on, in memory: nodes with the properties above and edges of the kinds
 * above, indexed both ways. Edges analysis creates are added too, so later steps see earlier steps' results.
 */
export class AnalysisGraph {
  readonly nodes = new Map<number, ANode>();
  readonly byObjectId = new Map<string, ANode>();
  private readonly outIdx = new Map<string, Map<number, GraphEdge[]>>();
  private readonly inIdx = new Map<string, Map<number, GraphEdge[]>>();
  private readonly byKind = new Map<string, GraphEdge[]>();
  /** End-node sets of high-degree (kind, start) pairs, built on first look-up, so hasEdge stays O(1). */
  private readonly outSets = new Map<string, Map<number, Set<number>>>();
  private nextId = -1;
  private memberCache = new Map<number, Set<number>>();
  private groupCache = new Map<number, Set<number>>();

  static async load(store: GraphStore): Promise<AnalysisGraph> {
    const g = new AnalysisGraph();
    // Both reads at once (two connections where the store has them): the database serves one while this thread
    // parses the other.
    const [, edges] = await Promise.all([
      store.scanNodes(ANALYSIS_PROPERTIES, (rows) => {
        for (const r of rows) g.addNode({ id: r.id, objectid: r.objectid, kinds: new Set(r.kinds), props: r.properties });
      }),
      store.edgesOfKinds(ANALYSIS_EDGE_KINDS, ANALYSIS_EDGE_PROPERTIES_OF),
    ]);
    const due = turnDue();
    for (const e of edges) {
      g.addEdge(e);
      if (due()) await nextTurn();
    }
    return g;
  }

  addNode(n: ANode): ANode {
    this.nodes.set(n.id, n);
    this.byObjectId.set(n.objectid, n);
    return n;
  }

  /** A node analysis creates (well-known principals); it gets a temporary negative id. */
  createNode(objectid: string, kinds: string[], props: Properties): ANode {
    return this.addNode({ id: this.nextId--, objectid, kinds: new Set(kinds), props });
  }

  addEdge(e: GraphEdge): void {
    // Called for every edge loaded (1.5 M at tier M): no tuple arrays, one look-up of the kind per index.
    let out = this.outIdx.get(e.kind);
    if (!out) {
      this.outIdx.set(e.kind, (out = new Map()));
      this.inIdx.set(e.kind, new Map());
      this.byKind.set(e.kind, []);
    }
    append(out, e.startId, e);
    append(this.inIdx.get(e.kind)!, e.endId, e);
    this.byKind.get(e.kind)!.push(e);
    this.outSets.get(e.kind)?.get(e.startId)?.add(e.endId);
    if (e.kind === 'MemberOf') {
      this.memberCache.clear();
      this.groupCache.clear();
    }
  }

  hasEdge(start: number, end: number, kind: string): boolean {
    const list = this.outIdx.get(kind)?.get(start);
    if (!list) return false;
    if (list.length < 16) return list.some((e) => e.endId === end);
    let byStart = this.outSets.get(kind);
    if (!byStart) this.outSets.set(kind, (byStart = new Map()));
    let ends = byStart.get(start);
    if (!ends) byStart.set(start, (ends = new Set(list.map((e) => e.endId))));
    return ends.has(end);
  }

  out(id: number, kind: string): GraphEdge[] {
    return this.outIdx.get(kind)?.get(id) ?? [];
  }

  in(id: number, kind: string): GraphEdge[] {
    return this.inIdx.get(kind)?.get(id) ?? [];
  }

  edges(kind: string): GraphEdge[] {
    return this.byKind.get(kind) ?? [];
  }

  ofKind(kind: string): ANode[] {
    return [...this.nodes.values()].filter((n) => n.kinds.has(kind));
  }

  node(id: number): ANode {
    return this.nodes.get(id)!;
  }

  /** Every principal that is a member of `groupId`, directly or through nested groups (not the group itself). */
  membersOf(groupId: number): Set<number> {
    return this.closure(groupId, this.memberCache, (id) => this.in(id, 'MemberOf').map((e) => e.startId));
  }

  /** Every group `id` belongs to, directly or through nested groups. */
  groupsOf(id: number): Set<number> {
    return this.closure(id, this.groupCache, (x) => this.out(x, 'MemberOf').map((e) => e.endId));
  }

  private closure(start: number, cache: Map<number, Set<number>>, next: (id: number) => number[]): Set<number> {
    const cached = cache.get(start);
    if (cached) return cached;
    const seen = new Set<number>();
    const stack = [start];
    while (stack.length) {
      for (const n of next(stack.pop()!)) {
        if (n !== start && !seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    cache.set(start, seen);
    return seen;
  }
}

function append(index: Map<number, GraphEdge[]>, key: number, e: GraphEdge): void {
  const list = index.get(key);
  if (list) list.push(e);
  else index.set(key, [e]);
}

/**
 * Derived kinds that may point from a node to itself. A schema-1 enrollment-agent template can be requested on
 * behalf of others with itself (BloodHound's EnrollOnBehalfOfVersionOne yields that edge and ESC3 uses it); for
 * every other kind a self-edge says nothing an attacker does not already have.
 */
const SELF_EDGE_KINDS = new Set(['EnrollOnBehalfOf']);

/** What an analysis run writes. Edges are also added to the view so later steps build on them. */
export class Changes {
  readonly nodes: NodeInput[] = [];
  /**
   * Edges recorded, as the view holds them (node ids: negative for nodes analysis created), without `lastseen`,
   * which the write adds: one object per derived edge rather than two (600k at tier M, all alive to the end).
   */
  readonly edges: GraphEdge[] = [];
  readonly counts: Record<string, number> = {};
  private fakeEdgeId = -1;
  /** Called every EDGES_PER_TURN edges recorded (the run starts writing them behind the rules, see DerivedWriter). */
  onPile?: () => void;

  constructor(
    private readonly g: AnalysisGraph,
    readonly now: string,
  ) {}

  node(n: ANode, kinds: string[], properties: Properties): void {
    for (const k of kinds) n.kinds.add(k);
    Object.assign(n.props, properties);
    this.nodes.push({ objectid: n.objectid, kinds, properties });
  }

  edge(start: ANode, end: ANode, kind: string, properties: Properties = {}): void {
    if ((start.id === end.id && !SELF_EDGE_KINDS.has(kind)) || this.g.hasEdge(start.id, end.id, kind)) return;
    const e = { id: this.fakeEdgeId--, startId: start.id, endId: end.id, kind, properties };
    this.g.addEdge(e);
    this.edges.push(e);
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    if (this.edges.length % EDGES_PER_TURN === 0) this.onPile?.();
  }
}
