import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fetchTags, OWNED_LABEL, TAGS_KEY, useTags, useExploreView } from '../../core/explore/hooks';
import { useToast } from '../../core/explore/toast';
import { applySelectorChanges, createOwnedLabel } from '../../core/zones/actions';
import { directSelectors, planAdd, planRemove, type Tag } from '../../core/zones/membership';

export interface MenuNode {
  objectId: string;
  name: string;
}

export interface NodeActions {
  tags: Tag[];
  ownedTag?: Tag;
  isOwned(node: MenuNode): boolean;
  /** Tags whose selectors name the node by object id. */
  taggedIn(node: MenuNode): Tag[];
  setStart(node: MenuNode): void;
  setEnd(node: MenuNode): void;
  add(tag: Tag | 'owned', node: MenuNode): Promise<void>;
  remove(tag: Tag, node: MenuNode): Promise<void>;
}

/** What the node menu (right click, long press, or the panel's actions button) can do to a node. */
export function useNodeActions(owned: ReadonlySet<string>): NodeActions {
  const [, update] = useExploreView();
  const client = useQueryClient();
  const toast = useToast();
  const tags = useTags().data?.assetGroupTags ?? [];
  return useMemo(() => {
    const ownedTag = tags.find((t) => t.type === 'LABEL' && t.name.toLowerCase() === OWNED_LABEL.toLowerCase());
    const refresh = () => client.invalidateQueries({ queryKey: TAGS_KEY });
    const run = async (what: () => Promise<void>, done: string) => {
      try {
        await what();
        toast.show(done);
      } catch (err) {
        toast.show(err instanceof Error ? err.message : String(err), true);
      } finally {
        await refresh();
      }
    };
    return {
      tags,
      ownedTag,
      isOwned: (n) => owned.has(n.objectId),
      taggedIn: (n) => tags.filter((t) => directSelectors(t, n.objectId).length > 0),
      setStart: (n) => update({ tab: 'pathfinding', start: n.objectId }),
      setEnd: (n) => update({ tab: 'pathfinding', end: n.objectId }),
      add: (tag, n) =>
        run(
          async () => {
            // The menu can be used before the tags have loaded: look the label up before making one.
            const findOwned = async () =>
              (await client.fetchQuery({ queryKey: TAGS_KEY, queryFn: fetchTags, staleTime: 0 })).assetGroupTags.find(
                (t) => t.type === 'LABEL' && t.name.toLowerCase() === OWNED_LABEL.toLowerCase(),
              );
            let target = tag === 'owned' ? (ownedTag ?? (await findOwned())) : tag;
            if (!target) {
              await createOwnedLabel();
              target = await findOwned();
              if (!target) throw new Error('The Owned label could not be made.');
            }
            await applySelectorChanges(planAdd(target, n.objectId));
          },
          `${n.name} added to ${tag === 'owned' ? OWNED_LABEL : tag.name}.`,
        ),
      remove: (tag, n) =>
        run(async () => {
          const { changes, blocked } = planRemove(tag, n.objectId);
          await applySelectorChanges(changes);
          if (blocked.length)
            throw new Error(
              `${n.name} stays in ${tag.name} through its default selector "${blocked[0]!.name}"; edit it in Administration.`,
            );
        }, `${n.name} removed from ${tag.name}.`),
    };
  }, [tags, owned, client, toast, update]);
}
