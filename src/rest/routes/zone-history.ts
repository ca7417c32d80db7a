import { z } from 'zod';
import { ZONE_RESPONSES as ZONES } from '../responses/zones.js';
import { intText, query } from '../params.js';
import * as shape from '../reshape/admin.js';
import * as legacy from '../reshape/zone-history.js';
import { data, route } from '../route.js';

/**
 * BloodHound's tag history and search, selector member counts, and the legacy asset-group API
 * (/api/v2/asset-groups*), which older scripts still call, over zones and labels.
 */
const id = intText(1);
const PAGE = new Set(['skip', 'limit', 'sort_by']);

/** Every query parameter but paging and sort_by is a history column filter; a repeated one adds a condition. */
const historyFilters = (q: Record<string, unknown>) =>
  Object.entries(q)
    .filter(([name]) => !PAGE.has(name))
    .flatMap(([column, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ column, value: String(value) })));
const historyQuery = z.looseObject({ skip: query.int(), limit: query.int(), sort_by: query.string() });
const historyPage = ({ assetGroupTagHistory: h }: { assetGroupTagHistory: HistoryPage }) => ({
  body: { count: h.totalCount, skip: h.skip, limit: h.limit, data: { records: h.records.map(legacy.historyRecord) } },
});
type HistoryPage = {
  totalCount: number;
  skip: number;
  limit: number;
  records: Parameters<typeof legacy.historyRecord>[0][];
};

const groupParams = z.object({ asset_group_id: id });
const membersQuery = z.object({ skip: query.int(), limit: query.int() });

export const zoneHistoryRoutes = [
  route('GET', '/api/v2/asset-group-tags-history', 'asset-group-tags', 'AssetGroupTagHistory', {
    response: { schema: ZONES.history },
    input: { query: historyQuery },
    variables: ({ query: q }) => ({ skip: q.skip, limit: q.limit, sortBy: q.sort_by ?? null, filters: historyFilters(q) }),
    reshape: historyPage,
  }),
  route('POST', '/api/v2/asset-group-tags-history', 'asset-group-tags', 'AssetGroupTagHistory', {
    response: { schema: ZONES.history },
    body: 'json',
    input: { query: historyQuery, body: z.object({ query: z.string({ error: 'is required.' }) }) },
    variables: ({ query: q, body }) => ({
      skip: q.skip,
      limit: q.limit,
      sortBy: q.sort_by ?? null,
      query: body.query,
      filters: historyFilters(q),
    }),
    reshape: historyPage,
  }),
  route('POST', '/api/v2/asset-group-tags/search', 'asset-group-tags', 'AssetGroupTagSearch', {
    body: 'json',
    input: {
      body: z.object({
        query: z.string().nullish(),
        tag_type: z.number().int().nullish(),
        asset_group_tag_id: z.number().int().nullish(),
      }),
    },
    variables: ({ body }) => ({ query: body.query ?? null, tagType: body.tag_type ?? null, tagId: body.asset_group_tag_id ?? null }),
    reshape: ({ assetGroupTagSearch: r }) =>
      data({ tags: r.tags.map(shape.tag), selectors: r.selectors.map(shape.selector), members: r.members.map(shape.member) }),
  }),
  route('GET', '/api/v2/asset-group-tags/:tag_id/selectors/:selector_id/members/counts', 'asset-group-tags', 'AssetGroupMemberCounts', {
    input: { params: z.object({ tag_id: id, selector_id: id }) },
    variables: ({ params }) => ({ id: params.tag_id, selectorId: params.selector_id }),
    reshape: ({ assetGroupTag: { memberCounts: c } }) =>
      data({ total_count: c.totalCount, counts: Object.fromEntries(c.counts.map((k) => [k.kind, k.count])) }),
  }),

  // The legacy asset-group API: a group is a zone or label (Tier Zero is admin_tier_0), a selector one object id.
  route('GET', '/api/v2/asset-groups', 'asset-groups', 'ListLegacyAssetGroups', {
    reshape: ({ legacyAssetGroups }) => data({ asset_groups: legacyAssetGroups.map(legacy.legacyGroup) }),
  }),
  route('POST', '/api/v2/asset-groups', 'asset-groups', 'CreateLegacyAssetGroup', {
    body: 'json',
    input: { body: z.object({ name: z.string().nullish(), tag: z.string().nullish() }) },
    variables: ({ body }) => ({ name: body.name ?? null, tag: body.tag ?? null }),
    reshape: ({ createLegacyAssetGroup: g }) => ({
      status: 201,
      headers: { Location: `/api/v2/asset-groups/${g.id}` },
      body: { data: legacy.legacyGroup(g) },
    }),
  }),
  route('GET', '/api/v2/asset-groups/:asset_group_id', 'asset-groups', 'GetLegacyAssetGroup', {
    input: { params: groupParams },
    variables: ({ params }) => ({ id: params.asset_group_id }),
    reshape: ({ legacyAssetGroup }) => data(legacy.legacyGroup(legacyAssetGroup)),
  }),
  route('PUT', '/api/v2/asset-groups/:asset_group_id', 'asset-groups', 'UpdateLegacyAssetGroup', {
    body: 'json',
    input: { params: groupParams, body: z.object({ name: z.string().nullish() }) },
    variables: ({ params, body }) => ({ id: params.asset_group_id, name: body.name ?? null }),
    reshape: ({ updateLegacyAssetGroup }) => data(legacy.legacyGroup(updateLegacyAssetGroup)),
  }),
  // BloodHound answers 200 without a body.
  route('DELETE', '/api/v2/asset-groups/:asset_group_id', 'asset-groups', 'DeleteLegacyAssetGroup', {
    input: { params: groupParams },
    variables: ({ params }) => ({ id: params.asset_group_id }),
    reshape: () => ({ status: 200, body: {} }),
  }),
  route('PUT', '/api/v2/asset-groups/:asset_group_id/selectors', 'asset-groups', 'UpdateLegacyAssetGroupSelectors', {
    body: 'json',
    input: {
      params: groupParams,
      body: z.array(z.object({ selector_name: z.string().nullish(), sid: z.string().nullish(), action: z.string().nullish() }), {
        error: 'must be a list of selector specs ({selector_name, sid, action}).',
      }),
    },
    variables: ({ params, body }) => ({
      id: params.asset_group_id,
      changes: body.map((c) => ({ selectorName: c.selector_name ?? null, sid: c.sid ?? null, action: c.action ?? null })),
    }),
    reshape: ({ updateLegacyAssetGroupSelectors: r }) => ({
      status: 201,
      body: { data: { added_selectors: r.added.map(legacy.legacySelector), removed_selectors: r.removed.map(legacy.legacySelector) } },
    }),
  }),
  route('DELETE', '/api/v2/asset-groups/:asset_group_id/selectors/:selector_id', 'asset-groups', 'DeleteLegacyAssetGroupSelector', {
    input: { params: z.object({ asset_group_id: id, selector_id: id }) },
    variables: ({ params }) => ({ id: params.asset_group_id, selectorId: params.selector_id }),
    reshape: () => ({ status: 200, body: {} }),
  }),
  // We keep no membership snapshots: the one collection is the current membership (its first 1000 members).
  route('GET', '/api/v2/asset-groups/:asset_group_id/collections', 'asset-groups', 'LegacyAssetGroupMembers', {
    input: { params: groupParams },
    variables: ({ params }) => ({ id: params.asset_group_id, skip: 0, limit: 1000 }),
    reshape: ({ legacyAssetGroupMembers: m }) => {
      const id = m.members[0]?.assetGroupId;
      if (id === undefined) return data([]);
      return data([
        {
          id,
          asset_group_id: id,
          entries: m.members.map((e) => ({ object_id: e.objectId, node_label: e.primaryKind, properties: { name: e.name } })),
        },
      ]);
    },
  }),
  route('GET', '/api/v2/asset-groups/:asset_group_id/members/counts', 'asset-groups', 'AssetGroupMemberCounts', {
    input: { params: groupParams },
    variables: ({ params }) => ({ id: params.asset_group_id, selectorId: null }),
    reshape: ({ assetGroupTag: { memberCounts: c } }) =>
      data({ total_count: c.totalCount, counts: Object.fromEntries(c.counts.map((k) => [k.kind, k.count])) }),
  }),
  route('GET', '/api/v2/asset-groups/:asset_group_id/members', 'asset-groups', 'LegacyAssetGroupMembers', {
    input: { params: groupParams, query: membersQuery },
    variables: ({ params, query: q }) => ({ id: params.asset_group_id, skip: q.skip, limit: q.limit }),
    reshape: ({ legacyAssetGroupMembers: m }) => ({
      body: { count: m.totalCount, skip: m.skip, limit: m.limit, data: { members: m.members.map(legacy.legacyMember) } },
    }),
  }),
  route('GET', '/api/v2/asset-groups/:asset_group_id/combo-node', 'asset-groups', 'LegacyAssetGroupMembers', {
    input: { params: groupParams },
    variables: ({ params }) => ({ id: params.asset_group_id, skip: 0, limit: 1000 }),
    reshape: ({ legacyAssetGroupMembers: m }) => data(legacy.comboGraph(m.members)),
  }),
];
