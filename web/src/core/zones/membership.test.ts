import { describe, expect, it } from 'vitest';
import { EXPLORE_SELECTOR, planAdd, planRemove, type Tag } from './membership';

const sel = (id: number, name: string, seeds: [string, string][], isDefault = false) => ({
  id,
  tagId: 2,
  name,
  description: '',
  autoCertify: false,
  isDefault,
  memberCount: seeds.length,
  seeds: seeds.map(([type, value]) => ({ type: type as 'OBJECTID', value })),
});
const tag = (selectors: ReturnType<typeof sel>[]): Tag =>
  ({ id: 2, type: 'LABEL', name: 'Owned', description: '', position: null, requireCertify: false, memberCount: 0, selectors }) as Tag;

describe('zone and label membership from Explore', () => {
  it('adds a node to the tag’s Explore selector, making it on first use', () => {
    expect(planAdd(tag([]), 'S-1')).toEqual([{ op: 'create', tagId: 2, name: EXPLORE_SELECTOR, objectIds: ['S-1'] }]);
    expect(planAdd(tag([sel(5, EXPLORE_SELECTOR, [['OBJECTID', 'S-1']])]), 'S-2')).toEqual([
      {
        op: 'update',
        tagId: 2,
        id: 5,
        seeds: [
          { type: 'OBJECTID', value: 'S-1' },
          { type: 'OBJECTID', value: 'S-2' },
        ],
      },
    ]);
    expect(planAdd(tag([sel(5, 'mine', [['OBJECTID', 's-1']])]), 'S-1')).toEqual([]);
  });

  it('removes the object id from each selector naming it, deleting emptied ones, and says which it cannot change', () => {
    const t = tag([
      sel(5, EXPLORE_SELECTOR, [
        ['OBJECTID', 'S-1'],
        ['OBJECTID', 'S-2'],
      ]),
      sel(6, 'one', [['OBJECTID', 'S-1']]),
      sel(7, 'default', [['OBJECTID', 'S-1']], true),
    ]);
    const { changes, blocked } = planRemove(t, 'S-1');
    expect(changes).toEqual([
      { op: 'update', tagId: 2, id: 5, seeds: [{ type: 'OBJECTID', value: 'S-2' }] },
      { op: 'delete', tagId: 2, id: 6 },
    ]);
    expect(blocked.map((s) => s.id)).toEqual([7]);
  });
});
