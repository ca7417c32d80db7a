import type { UserSession } from '../../auth/session.js';
import type { SelectorModel, TagModel } from '../../db/stores/zones/tags-store.js';
import type { TagHistoryStore } from '../../db/stores/zones/tag-history-store.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { primaryKind } from '../../graph/kinds.js';
import { paging } from '../common/paging.js';
import { SEED_TYPE, TAG_TYPE } from './asset-groups.js';
import type { RecordedAssetGroupsService } from './tag-history.js';

const CONTEXT = 'asset-groups';

/** BloodHound's tag of its Tier Zero asset group, which the legacy API and old scripts name it by. */
export const TIER_ZERO_LEGACY_TAG = 'admin_tier_0';

export interface LegacySelector {
  id: number;
  assetGroupId: number;
  name: string;
  /** the object id the selector selects (its first seed's value) */
  selector: string;
  systemSelector: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface LegacyAssetGroup {
  id: number;
  name: string;
  tag: string;
  systemGroup: boolean;
  memberCount: number;
  selectors: LegacySelector[];
  createdAt: Date;
  updatedAt: Date;
}

export interface LegacySelectorChange {
  selectorName?: string | null;
  sid?: string | null;
  action?: string | null;
}

const isTierZero = (t: TagModel) => t.type === TAG_TYPE.zone && t.position === 1;
/** The tag a tag has in the legacy API: the one a legacy client gave, else its name as an identifier. */
const legacyTag = (t: TagModel, given: string | null | undefined) =>
  isTierZero(t)
    ? TIER_ZERO_LEGACY_TAG
    : (given ??
      t.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_|_$/g, ''));

const legacySelector = (s: SelectorModel): LegacySelector => ({
  id: s.id,
  assetGroupId: s.tagId,
  name: s.name,
  selector: s.seeds[0]?.value ?? '',
  systemSelector: s.isDefault,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

/**
 * BloodHound's legacy asset groups (/api/v2/asset-groups*) over zones and labels: an asset group is a tag (Tier
 * Zero is the system group admin_tier_0; a new group is a label), its selectors the tag's selectors, each naming one
 * object id. Changes go through the recorded asset-groups service, so they land in the tag history too.
 */
export function createLegacyAssetGroups(deps: { assetGroups: RecordedAssetGroupsService; store: TagHistoryStore }) {
  const { assetGroups, store } = deps;

  async function group(t: TagModel): Promise<LegacyAssetGroup> {
    const [selectors, [extras]] = await Promise.all([assetGroups.listSelectors(t.id), store.extras([t.id])]);
    return {
      id: t.id,
      name: t.name,
      tag: legacyTag(t, extras?.legacyTag),
      systemGroup: isTierZero(t),
      memberCount: t.memberCount,
      selectors: selectors.map(legacySelector),
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
    };
  }
  const text = (v: string | null | undefined, field: string) => {
    if (typeof v !== 'string' || !v.trim() || v.length > 250)
      throw badRequest(CONTEXT, `${field} must be a string of 1 to 250 characters.`);
    return v.trim();
  };

  const list = async (): Promise<LegacyAssetGroup[]> => Promise.all((await assetGroups.listTags()).map(group));

  return {
    list,
    get: async (id: number) => group(await assetGroups.getTag(id)),

    async create(s: UserSession, input: { name?: string | null; tag?: string | null }): Promise<LegacyAssetGroup> {
      const name = text(input.name, 'name');
      const tag = text(input.tag, 'tag');
      if (!/^[A-Za-z0-9_-]+$/.test(tag)) throw badRequest(CONTEXT, 'tag must hold letters, digits, _ and - only.');
      const taken = (await list()).find((g) => g.tag === tag);
      if (taken) throw conflict(CONTEXT, `An asset group tagged "${tag}" already exists.`);
      const t = await assetGroups.createTag(s, { type: TAG_TYPE.label, name });
      await store.setExtras(t.id, { legacyTag: tag });
      return group(t);
    },

    async update(s: UserSession, id: number, input: { name?: string | null }): Promise<LegacyAssetGroup> {
      return group(await assetGroups.updateTag(s, id, { name: text(input.name, 'name') }));
    },

    async remove(s: UserSession, id: number): Promise<void> {
      const t = await assetGroups.getTag(id);
      if (isTierZero(t)) throw conflict(CONTEXT, 'The system asset group cannot be deleted.');
      await assetGroups.deleteTag(id, s);
    },

    /** BloodHound's selector spec list: `add` makes a selector of one object id, `remove` deletes the named one. */
    async updateSelectors(s: UserSession, id: number, changes: readonly LegacySelectorChange[]) {
      const t = await assetGroups.getTag(id);
      if (!changes.length || changes.length > 1000) throw badRequest(CONTEXT, 'the body must be a list of 1 to 1000 selector specs.');
      const added: LegacySelector[] = [];
      const removed: LegacySelector[] = [];
      for (const [i, c] of changes.entries()) {
        if (c.action !== 'add' && c.action !== 'remove') throw badRequest(CONTEXT, `[${i}].action must be "add" or "remove".`);
        const name = text(c.selectorName, `[${i}].selector_name`);
        if (c.action === 'add') {
          const sid = text(c.sid, `[${i}].sid`).toUpperCase();
          const created = await assetGroups.createSelector(s, t.id, { name, seeds: [{ type: SEED_TYPE.objectid, value: sid }] });
          added.push(legacySelector(created));
          continue;
        }
        const target = (await assetGroups.listSelectors(t.id)).find((x) => x.name === name && !x.isDefault);
        if (!target) throw notFound(CONTEXT, `[${i}]: asset group ${t.id} has no selector named "${name}" that can be removed.`);
        await assetGroups.deleteSelector(t.id, target.id, s);
        removed.push(legacySelector(target));
      }
      return { added, removed };
    },

    async removeSelector(s: UserSession, id: number, selectorId: number): Promise<void> {
      await assetGroups.deleteSelector(id, selectorId, s);
    },

    /** Members with the legacy fields: the environment they belong to and whether a user's selector selected them. */
    async members(id: number, input: { skip?: number | null; limit?: number | null }) {
      paging(CONTEXT, input, { limit: 100, max: 1000 });
      const page = await assetGroups.members(id, input);
      const details = new Map(
        (
          await store.memberDetails(
            id,
            page.members.map((m) => m.id),
          )
        ).map((d) => [d.nodeId, d]),
      );
      return {
        ...page,
        members: page.members.map((m) => ({
          ...m,
          assetGroupId: id,
          environmentId: details.get(m.id)?.environmentId ?? '',
          environmentKind: details.get(m.id)?.environmentKind ?? '',
          customMember: details.get(m.id)?.custom ?? false,
        })),
      };
    },

    /**
     * Zones, labels, their selectors and members whose name (members: or object id) contains `query` (BloodHound
     * asks for 3 characters at least), of one tag type (1 zone, 2 label) or one tag.
     */
    async search(input: { query?: string | null; tagType?: number | null; tagId?: number | null }) {
      const q = input.query?.trim() ?? '';
      if (q.length < 3 || q.length > 200) throw badRequest('asset-group-tags', 'query must be a string of 3 to 200 characters.');
      if (input.tagType !== TAG_TYPE.zone && input.tagType !== TAG_TYPE.label) {
        throw badRequest('asset-group-tags', 'tag_type must be 1 (zone) or 2 (label).');
      }
      if (input.tagId != null) await assetGroups.getTag(input.tagId);
      const limit = 500;
      const [names, members] = await Promise.all([
        store.searchNames(q, input.tagType, input.tagId ?? null, limit),
        store.searchMembers(q, input.tagType, input.tagId ?? null, limit),
      ]);
      const tags = await Promise.all(names.tagIds.map((t) => assetGroups.getTag(t)));
      const byTag = new Map<number, SelectorModel[]>();
      for (const tagId of new Set(names.selectors.map((x) => x.tagId))) byTag.set(tagId, await assetGroups.listSelectors(tagId));
      const selectors = names.selectors.flatMap((x) => byTag.get(x.tagId)?.filter((s) => s.id === x.id) ?? []);
      return {
        tags,
        selectors,
        members: members.map((m) => ({
          id: m.id,
          objectId: m.objectId,
          name: m.name,
          primaryKind: primaryKind(m.kinds),
          kinds: m.kinds,
          tagId: m.tagId,
          certified: m.certified,
          certifiedBy: m.certifiedBy,
        })),
      };
    },
  };
}

export type LegacyAssetGroupsService = ReturnType<typeof createLegacyAssetGroups>;
