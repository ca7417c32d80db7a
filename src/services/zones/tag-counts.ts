import type { AssetGroupsService } from './asset-groups.js';

const PAGE = 1000;

/**
 * Members of a tag per primary kind (BloodHound's /asset-group-tags/{id}/members/counts), read page by page through
 * the asset-groups service so the counts see exactly the members its list shows.
 */
export async function tagMemberCounts(assetGroups: AssetGroupsService, tagId: number, selectorId: number | null) {
  const byKind = new Map<string, number>();
  let total = 0;
  for (let skip = 0; ; skip += PAGE) {
    const page = await assetGroups.members(tagId, { skip, limit: PAGE, selectorId });
    total = page.totalCount;
    for (const m of page.members) byKind.set(m.primaryKind, (byKind.get(m.primaryKind) ?? 0) + 1);
    if (skip + PAGE >= page.totalCount || !page.members.length) break;
  }
  return { totalCount: total, counts: [...byKind].map(([kind, count]) => ({ kind, count })) };
}
