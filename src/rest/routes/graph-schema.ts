import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { enumNameOf } from '../../services/common/enums.js';
import { CLIENT_TYPE } from '../../services/collectors/clients.js';
import { kennelAsset } from '../../services/collectors/kennel.js';
import type { ClientType, ExtensionFieldsFragment, KennelFieldsFragment } from '../../generated/operations.js';
import { intText } from '../params.js';
import { data, route } from '../route.js';

/** OpenGraph's schema API, the client's edge types and dog tags, BloodHound's kennel and collection job logs. */

const extension = (x: ExtensionFieldsFragment) => ({
  id: x.id,
  name: x.name,
  display_name: x.displayName,
  version: x.version,
  namespace: x.namespace,
  node_kinds: x.nodeKinds.map((k) => ({
    id: k.id,
    name: k.name,
    display_name: k.displayName,
    description: k.description,
    is_display_kind: k.isDisplayKind,
    icon: k.icon,
    color: k.color,
  })),
  relationship_kinds: x.relationshipKinds.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    is_traversable: r.isTraversable,
  })),
  created_at: x.createdAt,
  updated_at: x.updatedAt,
});

/** BloodHound's kennel manifest: family → releases, each with version_meta and its assets. */
const kennel = (families: readonly KennelFieldsFragment[]) =>
  data(
    Object.fromEntries(
      families.map((f) => [
        f.family,
        f.releases.map((r) => ({
          version: r.version,
          version_meta: { major: r.major, minor: r.minor, patch: r.patch, prerelease: r.prerelease },
          release_date: r.releaseDate,
          release_assets: r.assets.map((a) => ({
            name: a.name,
            download_url: a.downloadUrl,
            checksum_download_url: a.checksumDownloadUrl,
            os: a.os,
            arch: a.arch,
          })),
        })),
      ]),
    ),
  );

/** An asset name of the kennel (`collector_ad-v2.6.0.zip`, `….zip.sha256`) → the release's type and tag. */
const assetParams = z.object({ asset_name: z.string() }).transform(({ asset_name }) => {
  const asset = kennelAsset(asset_name);
  if (!asset) throw badRequest('kennel', 'asset must name a release: <type>-vX.Y.Z.zip or its .sha256.');
  return { type: enumNameOf<ClientType>(CLIENT_TYPE, asset.type), releaseTag: asset.version, checksum: asset.checksum };
});

/** A graph id (node or edge): a positive integer that fits a double exactly. */
const graphId = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, 'is malformed: expected a graph id.')
  .transform(Number);

export const graphSchemaRoutes = [
  route('GET', '/api/v2/extensions', 'extensions', 'ListGraphExtensions', {
    reshape: ({ graphExtensions }) => data({ extensions: graphExtensions.map(extension) }),
  }),
  route('PUT', '/api/v2/extensions', 'extensions', 'PutGraphExtension', {
    body: 'json',
    input: { body: z.unknown() },
    variables: ({ body }) => ({ document: body ?? null }),
    reshape: ({ putGraphExtension }) => ({ status: 201, body: { data: extension(putGraphExtension) } }),
  }),
  route('DELETE', '/api/v2/extensions/:extension_id', 'extensions', 'DeleteGraphExtension', {
    input: { params: z.object({ extension_id: intText(1) }) },
    variables: ({ params }) => ({ id: params.extension_id }),
    reshape: () => ({ status: 204 }),
  }),
  // `schemas` names extensions (or AD, Azure), repeated or comma-separated; `is_traversable` true or false.
  route('GET', '/api/v2/extensions-edges', 'extensions', 'ExtensionEdges', {
    input: {
      query: z.object({
        schemas: z.union([z.string(), z.array(z.string())]).optional(),
        is_traversable: z.enum(['true', 'false'], { error: 'must be true or false.' }).optional(),
      }),
    },
    variables: ({ query: q }) => ({
      schemas:
        q.schemas === undefined ? null : (Array.isArray(q.schemas) ? q.schemas : [q.schemas]).flatMap((s) => s.split(',')).filter(Boolean),
      isTraversable: q.is_traversable === undefined ? null : q.is_traversable === 'true',
    }),
    reshape: ({ extensionEdges }) =>
      data(
        extensionEdges.map((e) => ({ name: e.name, is_traversable: e.isTraversable, is_builtin: e.isBuiltin, schema_name: e.schemaName })),
      ),
  }),
  route('GET', '/api/v2/node-kinds/:kind_id', 'node-kinds', 'ExtensionNodeKind', {
    input: { params: z.object({ kind_id: intText(1) }) },
    variables: ({ params }) => ({ id: params.kind_id }),
    reshape: ({ extensionNodeKind: k }) =>
      data({
        id: k.id,
        name: k.name,
        display_name: k.displayName,
        description: k.description,
        is_display_kind: k.isDisplayKind,
        icon: k.icon,
        color: k.color,
      }),
  }),
  route('GET', '/api/v2/relationship-kinds/:kind_id', 'relationship-kinds', 'ExtensionRelationshipKind', {
    input: { params: z.object({ kind_id: intText(1) }) },
    variables: ({ params }) => ({ id: params.kind_id }),
    reshape: ({ extensionRelationshipKind: k }) =>
      data({ id: k.id, name: k.name, description: k.description, is_traversable: k.isTraversable }),
  }),
  route('GET', '/api/v2/nodes/:node_id', 'nodes', 'GraphNodeById', {
    input: { params: z.object({ node_id: graphId }) },
    variables: ({ params }) => ({ id: params.node_id }),
    reshape: ({ graphNodeById: n }) => data({ id: n.id, object_id: n.objectId, kinds: n.kinds, label: n.label, properties: n.properties }),
  }),
  route('GET', '/api/v2/relationships/:relationship_id', 'relationships', 'GraphEdgeById', {
    input: { params: z.object({ relationship_id: graphId }) },
    variables: ({ params }) => ({ id: params.relationship_id }),
    reshape: ({ graphEdgeById: e }) => data({ id: e.id, source: e.source, target: e.target, kind: e.kind, properties: e.properties }),
  }),
  route('GET', '/api/v2/graph-schema/edges', 'graph-schema', 'EdgeTypes', {
    reshape: ({ edgeTypes }) =>
      data(
        edgeTypes.map((e) => ({ name: e.name, description: e.description, is_traversable: e.isTraversable, schema_name: e.schemaName })),
      ),
  }),
  route('GET', '/api/v2/dog-tags', 'dog-tags', 'DogTags', { reshape: ({ dogTags }) => data(dogTags) }),
  route('GET', '/api/v2/kennel/manifest', 'kennel', 'KennelManifest', { reshape: ({ kennelManifest }) => kennel(kennelManifest) }),
  route('GET', '/api/v2/kennel/enterprise-manifest', 'kennel', 'KennelEnterpriseManifest', {
    reshape: ({ kennelEnterpriseManifest }) => kennel(kennelEnterpriseManifest),
  }),
  // The checksum file when the asset name ends .sha256, else the zip (served only when it matches its checksum).
  route('GET', '/api/v2/kennel/download/:asset_name', 'kennel', 'CollectorChecksum', {
    input: { params: assetParams },
    when: ({ params }) => params.checksum,
    variables: ({ params }) => ({ type: params.type, releaseTag: params.releaseTag }),
    reshape: ({ collectorChecksum: c }) => ({
      raw: { data: Buffer.from(c.content, 'utf8'), contentType: 'application/octet-stream' },
      headers: { 'Content-Disposition': `attachment; filename="${c.fileName}"` },
    }),
  }),
  route('GET', '/api/v2/kennel/download/:asset_name', 'kennel', 'CollectorDownload', {
    input: { params: assetParams },
    when: ({ params }) => !params.checksum,
    variables: ({ params }) => ({ type: params.type, releaseTag: params.releaseTag }),
    reshape: ({ collectorDownload: d }) => ({
      raw: { data: Buffer.from(d.contentBase64, 'base64'), contentType: 'application/octet-stream' },
      headers: { 'Content-Disposition': `attachment; filename="${d.fileName}"` },
    }),
  }),
  route('GET', '/api/v2/jobs/:job_id/log', 'jobs', 'GetJobLog', {
    input: { params: z.object({ job_id: intText(1) }) },
    variables: ({ params }) => ({ id: params.job_id }),
    reshape: ({ collectionJob }) => data({ log: collectionJob.log }),
  }),
];
