import type { Queryable } from '../../db/pool.js';
import type {
  ExtensionInput,
  ExtensionNodeKind,
  ExtensionRelationshipKind,
  GraphSchemaStore,
} from '../../db/stores/graphdata/graph-schema-store.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { GraphStore } from '../../graph/store.js';
import { AD_NODE_KINDS, AZ_EDGE_KINDS, AZ_NODE_KINDS, TRAVERSABLE_KINDS } from '../../graph/kinds.js';

const CONTEXT = 'extensions';
const KIND = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;
const BUILTIN_NODE_KINDS = new Set<string>([...AD_NODE_KINDS, ...AZ_NODE_KINDS, 'Base', 'AZBase']);

export interface EdgeType {
  name: string;
  description: string;
  isTraversable: boolean;
  /** the extension that defines the kind, or AD / Azure for BloodHound's own */
  schemaName: string;
}

type Doc = Record<string, unknown>;
const obj = (v: unknown, where: string): Doc => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw badRequest(CONTEXT, `${where} must be an object.`);
  return v as Doc;
};
const str = (d: Doc, key: string, where: string, required = true, max = 200): string => {
  const v = d[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw badRequest(CONTEXT, `${where}.${key} is required.`);
    return '';
  }
  if (typeof v !== 'string' || v.length > max) throw badRequest(CONTEXT, `${where}.${key} must be a string of at most ${max} characters.`);
  return v;
};
const bool = (d: Doc, key: string, where: string): boolean => {
  const v = d[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw badRequest(CONTEXT, `${where}.${key} must be true or false.`);
  return v;
};
const list = (d: Doc, key: string): unknown[] => {
  const v = d[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > 1000) throw badRequest(CONTEXT, `${key} must be a list of at most 1000 kinds.`);
  return v;
};

/** Checks an OpenGraph extension document (BloodHound's schema: {schema, node_kinds, relationship_kinds}). */
export function readExtension(raw: unknown): ExtensionInput {
  const doc = obj(raw, 'The extension');
  const schema = obj(doc.schema, 'schema');
  const namespace = str(schema, 'namespace', 'schema', true, 50);
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(namespace)) throw badRequest(CONTEXT, 'schema.namespace must be letters and digits, a letter first.');
  const kindName = (d: Doc, where: string) => {
    const name = str(d, 'name', where, true, 100);
    if (!KIND.test(name)) throw badRequest(CONTEXT, `${where}.name must be letters, digits and _, a letter first.`);
    if (!name.startsWith(`${namespace}_`)) throw badRequest(CONTEXT, `${where}.name must start with the namespace: ${namespace}_.`);
    return name;
  };
  const nodeKinds: ExtensionNodeKind[] = list(doc, 'node_kinds').map((k, i) => {
    const d = obj(k, `node_kinds[${i}]`);
    const where = `node_kinds[${i}]`;
    const name = kindName(d, where);
    const color = str(d, 'color', where, false, 9);
    if (color && !/^#[0-9A-Fa-f]{3,8}$/.test(color)) throw badRequest(CONTEXT, `${where}.color must be a #RRGGBB colour.`);
    return {
      name,
      displayName: str(d, 'display_name', where, false) || name,
      description: str(d, 'description', where, false, 2000),
      isDisplayKind: bool(d, 'is_display_kind', where),
      icon: str(d, 'icon', where, false, 100),
      color,
    };
  });
  const relationshipKinds: ExtensionRelationshipKind[] = list(doc, 'relationship_kinds').map((k, i) => {
    const d = obj(k, `relationship_kinds[${i}]`);
    const where = `relationship_kinds[${i}]`;
    return {
      name: kindName(d, where),
      description: str(d, 'description', where, false, 2000),
      isTraversable: bool(d, 'is_traversable', where),
    };
  });
  const names = [...nodeKinds, ...relationshipKinds].map((k) => k.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw badRequest(CONTEXT, `${twice} is defined twice.`);
  return {
    name: str(schema, 'name', 'schema', true, 100),
    displayName: str(schema, 'display_name', 'schema', false, 200) || str(schema, 'name', 'schema'),
    version: str(schema, 'version', 'schema', true, 50),
    namespace,
    document: raw,
    nodeKinds,
    relationshipKinds,
  };
}

/**
 * OpenGraph's schema API: extensions (validated, stored whole with their kinds) and the relationship kinds the
 * client draws, each marked traversable as pathfinding treats it.
 */
export function createGraphSchemaService(deps: {
  store: GraphSchemaStore;
  graph: Pick<GraphStore, 'nodesByIds'>;
  tx: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  bind: (q: Queryable) => GraphSchemaStore;
}) {
  const { store } = deps;
  return {
    list: () => store.list(),
    async get(id: number) {
      const x = await store.get(id);
      if (!x) throw notFound(CONTEXT, `No extension has id ${id}.`);
      return x;
    },
    /** Inserts or replaces (by schema.name) an extension; its kinds may not belong to another one. */
    async put(raw: unknown) {
      const input = readExtension(raw);
      const id = await deps.tx(async (q) => {
        const tx = deps.bind(q);
        const names = [...input.nodeKinds, ...input.relationshipKinds].map((k) => k.name);
        const taken = await tx.kindsOwnedElsewhere(input.name, names);
        if (taken.length) throw conflict(CONTEXT, `Another extension defines ${taken.join(', ')}.`);
        return tx.upsert(input);
      });
      return (await store.get(id))!;
    },
    async remove(id: number): Promise<void> {
      if (!(await store.remove(id))) throw notFound(CONTEXT, `No extension has id ${id}.`);
    },
    async nodeKind(id: number) {
      const k = await store.nodeKind(id);
      if (!k) throw notFound('node-kinds', `No extension node kind has id ${id}.`);
      return k;
    },
    async relationshipKind(id: number) {
      const k = await store.relationshipKind(id);
      if (!k) throw notFound('relationship-kinds', `No extension relationship kind has id ${id}.`);
      return k;
    },
    /** A node by its graph id (OpenGraph's /nodes/{id}). */
    async node(id: number) {
      const [n] = await deps.graph.nodesByIds([id]);
      if (!n) throw notFound('nodes', `No node has id ${id}.`);
      return n;
    },
    /** An edge by its graph id (OpenGraph's /relationships/{id}). */
    async edge(id: number) {
      const e = await store.edge(id);
      if (!e) throw notFound('relationships', `No relationship has id ${id}.`);
      return e;
    },
    /** Traversable kinds the extensions add to BloodHound's (pathfinding's only_traversable). */
    traversableKinds: () => store.traversableKinds(),
    /** BloodHound's /extensions-edges: edge types with is_builtin, filtered by schema names and traversability. */
    async extensionEdges(filter: { schemas?: readonly string[] | null; isTraversable?: boolean | null }) {
      const all = await this.edgeTypes();
      return all
        .filter((e) => !filter.schemas?.length || filter.schemas.includes(e.schemaName))
        .filter((e) => filter.isTraversable == null || e.isTraversable === filter.isTraversable)
        .map((e) => ({ ...e, isBuiltin: e.schemaName === 'AD' || e.schemaName === 'Azure' }));
    },
    /** Relationship kinds: BloodHound's AD and Azure ones, the extensions', and any other the graph holds. */
    async edgeTypes(): Promise<EdgeType[]> {
      const extensions = await store.list();
      const byName = new Map<string, EdgeType>();
      for (const x of extensions)
        for (const r of x.relationshipKinds)
          byName.set(r.name, { name: r.name, description: r.description, isTraversable: r.isTraversable, schemaName: x.name });
      const azure = new Set<string>(AZ_EDGE_KINDS);
      const extensionNodeKinds = new Set(extensions.flatMap((x) => x.nodeKinds.map((k) => k.name)));
      for (const name of await store.edgeKindsInUse()) {
        if (byName.has(name) || BUILTIN_NODE_KINDS.has(name) || extensionNodeKinds.has(name) || name.startsWith('Tag_')) continue;
        byName.set(name, {
          name,
          description: '',
          isTraversable: TRAVERSABLE_KINDS.has(name),
          schemaName: azure.has(name) || name.startsWith('AZ') ? 'Azure' : 'AD',
        });
      }
      for (const name of TRAVERSABLE_KINDS) {
        if (!byName.has(name))
          byName.set(name, { name, description: '', isTraversable: true, schemaName: name.startsWith('AZ') ? 'Azure' : 'AD' });
      }
      return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
  };
}

export type GraphSchemaService = ReturnType<typeof createGraphSchemaService>;
