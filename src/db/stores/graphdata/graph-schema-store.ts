import type { Queryable } from '../../pool.js';

/** OpenGraph extensions (migration 0065's graph_extensions tables) and the relationship kinds the graph holds. */

export interface ExtensionNodeKind {
  name: string;
  displayName: string;
  description: string;
  isDisplayKind: boolean;
  icon: string;
  color: string;
}

export interface ExtensionRelationshipKind {
  name: string;
  description: string;
  isTraversable: boolean;
}

export interface ExtensionModel {
  id: number;
  name: string;
  displayName: string;
  version: string;
  namespace: string;
  nodeKinds: (ExtensionNodeKind & { id: number })[];
  relationshipKinds: (ExtensionRelationshipKind & { id: number })[];
  createdAt: Date;
  updatedAt: Date;
}

export interface ExtensionInput {
  name: string;
  displayName: string;
  version: string;
  namespace: string;
  document: unknown;
  nodeKinds: ExtensionNodeKind[];
  relationshipKinds: ExtensionRelationshipKind[];
}

const EXTENSION = /* SQL */ `x.id, x.name, x.display_name as "displayName", x.version, x.namespace,
  x.created_at as "createdAt", x.updated_at as "updatedAt",
  (select coalesce(jsonb_agg(jsonb_build_object('id', k.id, 'name', k.name, 'displayName', k.display_name,
     'description', k.description, 'isDisplayKind', k.is_display_kind, 'icon', k.icon, 'color', k.color) order by k.id), '[]')
   from graph_extension_node_kinds k where k.extension_id = x.id) as "nodeKinds",
  (select coalesce(jsonb_agg(jsonb_build_object('id', r.id, 'name', r.name, 'description', r.description,
     'isTraversable', r.is_traversable) order by r.id), '[]')
   from graph_extension_relationship_kinds r where r.extension_id = x.id) as "relationshipKinds"`;

export function createGraphSchemaStore(db: Queryable) {
  return {
    async list(): Promise<ExtensionModel[]> {
      return db.query<ExtensionModel>(`-- graphSchema.list\nselect ${EXTENSION} from graph_extensions x order by x.id`);
    },
    async get(id: number): Promise<ExtensionModel | undefined> {
      return (await db.query<ExtensionModel>(`-- graphSchema.get\nselect ${EXTENSION} from graph_extensions x where x.id = $1`, [id]))[0];
    },
    /** Kinds (node or relationship) another extension already defines; a kind belongs to one extension. */
    async kindsOwnedElsewhere(name: string, kinds: readonly string[]): Promise<string[]> {
      const rows = await db.query<{ name: string }>(
        `-- graphSchema.kindsOwnedElsewhere
select k.name from graph_extension_node_kinds k join graph_extensions x on x.id = k.extension_id
where x.name <> $1 and k.name = any($2::text[])
union
select r.name from graph_extension_relationship_kinds r join graph_extensions x on x.id = r.extension_id
where x.name <> $1 and r.name = any($2::text[])`,
        [name, kinds],
      );
      return rows.map((r) => r.name);
    },
    /** Inserts or replaces (by name) an extension and its kinds; call inside a transaction. */
    async upsert(e: ExtensionInput): Promise<number> {
      const [row] = await db.query<{ id: number }>(
        `-- graphSchema.upsert
insert into graph_extensions (name, display_name, version, namespace, document) values ($1, $2, $3, $4, $5)
on conflict (name) do update set display_name = excluded.display_name, version = excluded.version,
  namespace = excluded.namespace, document = excluded.document, updated_at = now()
returning id`,
        [e.name, e.displayName, e.version, e.namespace, JSON.stringify(e.document)],
      );
      const id = row!.id;
      await db.execute(`-- graphSchema.clearNodeKinds\ndelete from graph_extension_node_kinds where extension_id = $1`, [id]);
      await db.execute(`-- graphSchema.clearRelKinds\ndelete from graph_extension_relationship_kinds where extension_id = $1`, [id]);
      for (const k of e.nodeKinds) {
        await db.execute(
          `-- graphSchema.addNodeKind
insert into graph_extension_node_kinds (extension_id, name, display_name, description, is_display_kind, icon, color)
values ($1, $2, $3, $4, $5, $6, $7)`,
          [id, k.name, k.displayName, k.description, k.isDisplayKind, k.icon, k.color],
        );
      }
      for (const r of e.relationshipKinds) {
        await db.execute(
          `-- graphSchema.addRelKind
insert into graph_extension_relationship_kinds (extension_id, name, description, is_traversable) values ($1, $2, $3, $4)`,
          [id, r.name, r.description, r.isTraversable],
        );
      }
      return id;
    },
    async remove(id: number): Promise<boolean> {
      return (await db.execute(`-- graphSchema.remove\ndelete from graph_extensions where id = $1`, [id])) > 0;
    },
    async nodeKind(id: number): Promise<(ExtensionNodeKind & { id: number; extensionId: number }) | undefined> {
      const rows = await db.query<ExtensionNodeKind & { id: number; extensionId: number }>(
        `-- graphSchema.nodeKind
select id, extension_id as "extensionId", name, display_name as "displayName", description, is_display_kind as "isDisplayKind",
  icon, color from graph_extension_node_kinds where id = $1`,
        [id],
      );
      return rows[0];
    },
    async relationshipKind(id: number): Promise<(ExtensionRelationshipKind & { id: number; extensionId: number }) | undefined> {
      const rows = await db.query<ExtensionRelationshipKind & { id: number; extensionId: number }>(
        `-- graphSchema.relationshipKind
select id, extension_id as "extensionId", name, description, is_traversable as "isTraversable"
from graph_extension_relationship_kinds where id = $1`,
        [id],
      );
      return rows[0];
    },
    /** Traversable relationship kinds the extensions define (pathfinding's only_traversable takes them too). */
    async traversableKinds(): Promise<string[]> {
      const rows = await db.query<{ name: string }>(
        `-- graphSchema.traversableKinds\nselect name from graph_extension_relationship_kinds where is_traversable order by name`,
      );
      return rows.map((r) => r.name);
    },
    /** One edge by its graph id. */
    async edge(
      id: number,
    ): Promise<{ id: number; startId: number; endId: number; kind: string; properties: Record<string, unknown> } | undefined> {
      const rows = await db.query<{ id: number; startId: number; endId: number; kind: string; properties: Record<string, unknown> }>(
        `-- graphSchema.edge
select e.id::float8 as id, e.start_id::float8 as "startId", e.end_id::float8 as "endId", k.name as kind, coalesce(e.properties, '{}') as properties
from graph_edges e join graph_kinds k on k.id = e.kind_id where e.id = $1`,
        [id],
      );
      return rows[0];
    },

    /** Kinds the graph has registered that no node carries: relationship kinds (the nodes' kind index answers). */
    async edgeKindsInUse(): Promise<string[]> {
      const rows = await db.query<{ name: string }>(
        `-- graphSchema.edgeKindsInUse
select k.name from graph_kinds k
where not exists (select 1 from graph_nodes n where n.kind_ids @> array[k.id]) order by k.name`,
      );
      return rows.map((r) => r.name);
    },
  };
}

export type GraphSchemaStore = ReturnType<typeof createGraphSchemaStore>;
