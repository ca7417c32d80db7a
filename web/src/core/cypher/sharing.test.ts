import { describe, expect, it } from 'vitest';
import { sharingChanges } from './sharing';

describe('sharingChanges', () => {
  it('shares with the newly ticked and unshares the unticked, leaving the rest alone', () => {
    expect(sharingChanges(['a', 'b'], ['b', 'c'])).toEqual({ share: ['c'], unshare: ['a'] });
  });
  it('changes nothing when the ticks are the same', () => {
    expect(sharingChanges(['a'], ['a'])).toEqual({ share: [], unshare: [] });
  });
});
