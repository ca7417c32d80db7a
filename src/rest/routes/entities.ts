import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { ENTITY_TYPES, LISTS, type EntityType } from '../../services/graph/entities-lists.js';
import { query } from '../params.js';
import * as shape from '../reshape/entities.js';
import { route, type RestRoute } from '../route.js';
import { entityList, objectParams } from './entity-list.js';

/**
 * BloodHound's entity REST surface, generated from the entity table: for every AD entity type,
 * `GET /api/v2/<type>/{id}` (info and counts) and `GET /api/v2/<type>/{id}/<list>` (type=list|graph); for Azure,
 * `GET /api/v2/azure/<type>?object_id=…[&related_entity_type=<list>]`. Each runs an operation of entities.graphql.
 */

const countsQuery = z.object({ counts: query.optBool(), count: query.optBool() });

/** Entity info and one list route pair per list of an AD entity type. `skip` names paths already declared elsewhere. */
function adRoutes(t: EntityType, skip: ReadonlySet<string>): RestRoute[] {
  const base = `/api/v2/${t.path}/:object_id`;
  const context = t.path;
  const out: RestRoute[] = [];
  if (!skip.has(base)) {
    out.push(
      route('GET', base, context, 'GetEntityInfo', {
        input: { params: objectParams, query: countsQuery },
        variables: ({ params, query }) => ({ objectId: params.object_id, kind: t.kind, counts: query.counts ?? query.count ?? true }),
        reshape: ({ entity }) => shape.adInfo(entity!),
      }),
    );
  }
  for (const id of t.lists) {
    const spec = LISTS[id];
    const path = `${base}/${spec.path}`;
    if (skip.has(path)) continue;
    // BloodHound looks the root up as any AD node (Base) on every list route, whatever the route's type.
    const kind = t.kind === 'Base' ? 'Base' : t.kind;
    out.push(
      ...entityList(
        path,
        context,
        { op: 'ListEntityList', page: (r) => r.entity!.list },
        { op: 'GraphEntityList', graph: (r) => r.entity!.graph.bloodhound },
        { kind, name: spec.key },
      ),
    );
  }
  return out;
}

const azureTypes = ENTITY_TYPES.filter((t) => t.azure);
const azureQuery = z.object({
  object_id: z.string({ error: 'is required.' }),
  related_entity_type: z.string().optional(),
  counts: query.optBool(),
  skip: query.int(),
  limit: query.int(),
  type: z.enum(['list', 'graph'], { error: 'must be "list" or "graph".' }).default('list'),
});
const azureParams = z.object({
  entity_type: z.enum(azureTypes.map((t) => t.path) as [string, ...string[]], {
    error: `must be one of ${azureTypes.map((t) => t.path).join(', ')}.`,
  }),
});
const azureType = (path: string) => azureTypes.find((t) => t.path === path)!;
/** The list key of an Azure related_entity_type (BloodHound's path spelling); 400 naming the known ones. */
function azureList(t: EntityType, related: string): never {
  const id = t.lists.find((l) => LISTS[l].path === related);
  if (!id) {
    const known = t.lists.map((l) => LISTS[l].path).join(', ');
    throw badRequest('azure', `query parameter related_entity_type must be one of ${known} for ${t.path}.`);
  }
  return LISTS[id].key as never;
}

const azureRoutes: RestRoute[] = [
  route('GET', '/api/v2/azure/:entity_type', 'azure', 'GetEntityInfo', {
    input: { params: azureParams, query: azureQuery },
    when: ({ query }) => !query.related_entity_type,
    variables: ({ params, query }) => ({
      objectId: query.object_id,
      kind: azureType(params.entity_type).kind,
      counts: query.counts ?? true,
    }),
    reshape: ({ entity }) => shape.azureInfo(entity!),
  }),
  route('GET', '/api/v2/azure/:entity_type', 'azure', 'ListAzureEntityList', {
    input: { params: azureParams, query: azureQuery },
    when: ({ query }) => !!query.related_entity_type && query.type === 'list',
    variables: ({ params, query }) => {
      const t = azureType(params.entity_type);
      return {
        objectId: query.object_id,
        kind: t.kind,
        name: azureList(t, query.related_entity_type!),
        skip: query.skip,
        // BloodHound's Azure lists default to 100 entries (its AD lists to 10).
        limit: query.limit ?? 100,
      };
    },
    reshape: ({ entity }) => shape.azureList(entity!.list),
  }),
  route('GET', '/api/v2/azure/:entity_type', 'azure', 'GraphEntityList', {
    input: { params: azureParams, query: azureQuery },
    when: ({ query }) => !!query.related_entity_type && query.type === 'graph',
    variables: ({ params, query }) => {
      const t = azureType(params.entity_type);
      return { objectId: query.object_id, kind: t.kind, name: azureList(t, query.related_entity_type!) };
    },
    reshape: ({ entity }) => ({ body: entity!.graph.bloodhound }),
  }),
];

/** Entity routes, leaving out the paths `existing` already declares (the API document's users and list endpoints). */
export function entityRoutes(existing: readonly RestRoute[]): RestRoute[] {
  const skip = new Set(existing.filter((r) => r.method === 'GET').map((r) => r.path));
  return [...ENTITY_TYPES.filter((t) => !t.azure).flatMap((t) => adRoutes(t, skip)), ...azureRoutes];
}
