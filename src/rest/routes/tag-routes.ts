import { z } from 'zod';
import { badRequest } from '../../errors.js';
import type { MemberCertificationColumn } from '../../generated/operations.js';
import { CERTIFICATION_FILTER_COLUMN, CERTIFICATION_FILTERS } from '../../services/zones/certification-filters.js';
import { enumNameOf } from '../../services/common/enums.js';
import { intText, query } from '../params.js';
import * as shape from '../reshape/admin.js';
import { data, route } from '../route.js';

/**
 * BloodHound's asset-group-tag reads we lacked: member counts per kind, one selector by id and its
 * members. Declared as paths more specific than `/:tag_id/members/:member_id`, so the router tries them first.
 */
const id = intText(1);
const tagParams = z.object({ tag_id: id });
const selectorParams = z.object({ tag_id: id, selector_id: id });

/** The filter parameters of the certification list as GraphQL's MemberCertificationFilter; 400 for another name. */
const certificationFilters = (q: Record<string, unknown>) =>
  Object.entries(q)
    .filter(([name]) => name !== 'skip' && name !== 'limit')
    .flatMap(([name, v]) => {
      if (!Object.hasOwn(CERTIFICATION_FILTERS, name)) {
        const names = Object.keys(CERTIFICATION_FILTERS).join(', ');
        throw badRequest('asset-group-tags', `${name} is not a filterable column; use one of: ${names}.`);
      }
      const column = enumNameOf<MemberCertificationColumn>(CERTIFICATION_FILTER_COLUMN, name);
      return (Array.isArray(v) ? v : [v]).map((value) => ({ column, value: String(value) }));
    });

export const tagRoutes = [
  // BloodHound's certification list: zone members with their current certification; every other query parameter
  // is a column filter (`certified=eq:0`, `name=~eq:adm`), a repeated one adds a condition. The change history of
  // one member is its detail's `certification_history`.
  route('GET', '/api/v2/asset-group-tags/certifications', 'asset-group-tags', 'ListMemberCertifications', {
    input: { query: z.looseObject({ skip: query.int(), limit: query.int() }) },
    variables: ({ query }) => ({ skip: query.skip, limit: query.limit, filters: certificationFilters(query) }),
    reshape: ({ memberCertifications: c }) => ({
      body: { count: c.totalCount, skip: c.skip, limit: c.limit, data: { members: c.members.map(shape.memberCertification) } },
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
