import { CreateSelectorDocument, CreateTagDocument, DeleteSelectorDocument, UpdateSelectorDocument } from '../../generated/graphql';
import { gql } from '../api/client';
import type { SelectorChange } from './membership';

/** Carries out selector changes one by one, in order. */
export async function applySelectorChanges(changes: readonly SelectorChange[]): Promise<void> {
  for (const c of changes) {
    if (c.op === 'create') {
      await gql(CreateSelectorDocument, {
        tagId: c.tagId,
        input: {
          name: c.name,
          description: 'Nodes added from the Explore page.',
          seeds: c.objectIds.map((value) => ({ type: 'OBJECTID' as const, value })),
        },
      });
    } else if (c.op === 'update') {
      await gql(UpdateSelectorDocument, { tagId: c.tagId, id: c.id, input: { seeds: c.seeds } });
    } else {
      await gql(DeleteSelectorDocument, { tagId: c.tagId, id: c.id });
    }
  }
}

/** Makes the Owned label where it has been deleted (the server seeds it). */
export async function createOwnedLabel(): Promise<number> {
  const { createAssetGroupTag } = await gql(CreateTagDocument, {
    input: { type: 'LABEL', name: 'Owned', description: 'Objects marked as owned (compromised).' },
  });
  return createAssetGroupTag.id;
}
