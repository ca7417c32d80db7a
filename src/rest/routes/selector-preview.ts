import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { query } from '../params.js';
import { data, route } from '../route.js';
import { selectorBody, seedsInput } from './admin.js';

/** BloodHound's expansion methods: 0 none, 1 all (its default), 2 children, 3 parents. */
const EXPANSIONS = new Set([0, 1, 2, 3]);

/**
 * BloodHound's POST /api/v2/asset-group-tags/preview-selectors: `{seeds, expansion}` and `?limit=` (200), answered
 * `{data: {members}}` with each member's source (1: selected by a seed).
 */
export const selectorPreviewRoutes = [
  route('POST', '/api/v2/asset-group-tags/preview-selectors', 'asset-group-tags', 'PreviewAssetGroupSelectors', {
    body: 'json',
    input: {
      query: z.object({ limit: query.int() }),
      body: z.object({ seeds: selectorBody.shape.seeds, expansion: z.number().int().nullish() }),
    },
    variables: ({ query: q, body }) => {
      if (body.expansion != null && !EXPANSIONS.has(body.expansion)) throw badRequest('asset-group-tags', 'invalid expansion method');
      return { seeds: seedsInput(body.seeds) ?? null, limit: q.limit };
    },
    reshape: ({ previewAssetGroupSelectors }) =>
      data({
        members: previewAssetGroupSelectors.map((m) => ({
          id: m.id,
          object_id: m.objectId,
          environment_id: m.environmentId,
          primary_kind: m.primaryKind,
          name: m.name,
          source: 1,
        })),
      }),
  }),
];
