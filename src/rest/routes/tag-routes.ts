import { z } from 'zod';
import { intText, query } from '../params.js';
import * as shape from '../reshape/admin.js';
import { data, route } from '../route.js';

/**
 * BloodHound's asset-group-tag reads we lacked (issue 12): member counts per kind, one selector by id and its
 * members. Declared as paths more specific than `/:tag_id/members/:member_id`, so the router tries them first.
 */
const id = intText(1);
const tagParams = z.object({ tag_id: id });
const selectorParams = z.object({ tag_id: id, selector_id: id });

export const tagRoutes = [
  // BloodHound's certification record list: newest change first, `asset_group_tag_id` narrows to one tag.
  route('GET', '/api/v2/asset-group-tags/certifications', 'asset-group-tags', 'ListCertifications', {
    input: { query: z.object({ skip: query.int(), limit: query.int(), asset_group_tag_id: query.int(1) }) },
    variables: ({ query }) => ({ skip: query.skip, limit: query.limit, tagId: query.asset_group_tag_id }),
    reshape: ({ certifications: c }) => ({
      body: { count: c.totalCount, skip: c.skip, limit: c.limit, data: { records: c.records.map(shape.certification) } },
    }),
  }),
  route('GET', '/api/v2/asset-group-tags/:tag_id/members/counts', 'asset-group-tags', 'AssetGroupMemberCounts', {
    input: { params: tagParams, query: z.object({ selector_id: query.int(1) }) },
    variables: ({ params, query }) => ({ id: params.tag_id, selectorId: query.selector_id }),
    reshape: ({ assetGroupTag: { memberCounts: c } }) =>
      data({ total_count: c.totalCount, counts: Object.fromEntries(c.counts.map((k) => [k.kind, k.count])) }),
  }),
  route('GET', '/api/v2/asset-group-tags/:tag_id/selectors/:selector_id', 'asset-group-tags', 'GetAssetGroupSelector', {
    input: { params: selectorParams },
    variables: ({ params }) => ({ tagId: params.tag_id, id: params.selector_id }),
    // BloodHound answers one selector as {data: {selector}} (GetSelectorResponse).
    reshape: ({ assetGroupTag }) => data({ selector: shape.selector(assetGroupTag.selector) }),
  }),
  route('GET', '/api/v2/asset-group-tags/:tag_id/selectors/:selector_id/members', 'asset-group-tags', 'ListAssetGroupMembers', {
    input: { params: selectorParams, query: z.object({ skip: query.int(), limit: query.int() }) },
    variables: ({ params, query }) => ({ id: params.tag_id, selectorId: params.selector_id, skip: query.skip, limit: query.limit }),
    reshape: ({ assetGroupTag: { members: m } }) => ({
      body: { count: m.totalCount, skip: m.skip, limit: m.limit, data: { members: m.members.map(shape.member) } },
    }),
  }),
];
