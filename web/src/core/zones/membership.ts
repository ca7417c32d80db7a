import type { TagsQuery } from '../../generated/graphql';

export type Tag = TagsQuery['assetGroupTags'][number];
export type Selector = Tag['selectors'][number];

/** The selector the web app adds nodes to, one per zone or label. */
export const EXPLORE_SELECTOR = 'Objects added in Explore';

/** Selectors of a tag that name this node by object id (the ones a removal can change). */
export function directSelectors(tag: Tag, objectId: string): Selector[] {
  return tag.selectors.filter((s) =>
    s.seeds.some((seed) => seed.type === 'OBJECTID' && seed.value.toUpperCase() === objectId.toUpperCase()),
  );
}

/** A change to make through the selector API: create, update seeds, or delete a selector. */
export type SelectorChange =
  | { op: 'create'; tagId: number; name: string; objectIds: string[] }
  | { op: 'update'; tagId: number; id: number; seeds: { type: Selector['seeds'][number]['type']; value: string }[] }
  | { op: 'delete'; tagId: number; id: number };

/** Adding a node: into the tag's Explore selector (made on first use); nothing when a selector names it already. */
export function planAdd(tag: Tag, objectId: string): SelectorChange[] {
  if (directSelectors(tag, objectId).length) return [];
  const own = tag.selectors.find((s) => s.name === EXPLORE_SELECTOR && !s.isDefault);
  if (!own) return [{ op: 'create', tagId: tag.id, name: EXPLORE_SELECTOR, objectIds: [objectId] }];
  return [
    {
      op: 'update',
      tagId: tag.id,
      id: own.id,
      seeds: [...own.seeds.map(({ type, value }) => ({ type, value })), { type: 'OBJECTID', value: objectId }],
    },
  ];
}

/**
 * Removing a node: its object id out of every selector that names it; a selector left with no seed is deleted.
 * A member through a kind or a rule (or a default selector) cannot be removed this way: `blocked` says which.
 */
export function planRemove(tag: Tag, objectId: string): { changes: SelectorChange[]; blocked: Selector[] } {
  const changes: SelectorChange[] = [];
  const blocked: Selector[] = [];
  for (const s of directSelectors(tag, objectId)) {
    if (s.isDefault) {
      blocked.push(s);
      continue;
    }
    const seeds = s.seeds.filter((seed) => !(seed.type === 'OBJECTID' && seed.value.toUpperCase() === objectId.toUpperCase()));
    changes.push(
      seeds.length
        ? { op: 'update', tagId: tag.id, id: s.id, seeds: seeds.map(({ type, value }) => ({ type, value })) }
        : { op: 'delete', tagId: tag.id, id: s.id },
    );
  }
  return { changes, blocked };
}
