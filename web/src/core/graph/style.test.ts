import { describe, expect, it } from 'vitest';
import { isOwned, isTierZero, kindIcon } from './style';

describe('node style', () => {
  const custom = new Map([['Person', { icon: 'house', color: '#33CC88' }]]);

  it('draws built-in kinds with their icon and colour', () => {
    expect(kindIcon({ kind: 'User', kinds: ['Base', 'User'] }, new Map())).toEqual({ icon: 'user', color: '#17E625' });
    expect(kindIcon({ kind: 'AZTenant', kinds: ['AZBase', 'AZTenant'] }, new Map())).toEqual({ icon: 'cloud', color: '#54F2F2' });
  });

  it('lets a custom kind win, whichever of the node kinds it is, and falls back to a question mark', () => {
    expect(kindIcon({ kind: 'Person', kinds: ['Person'] }, custom)).toEqual({ icon: 'house', color: '#33CC88' });
    expect(kindIcon({ kind: 'User', kinds: ['User', 'Person'] }, custom)).toEqual({ icon: 'house', color: '#33CC88' });
    expect(kindIcon({ kind: 'Widget', kinds: ['Widget'] }, custom)).toEqual({ icon: 'question', color: '#FFFFFF' });
  });

  it('marks Tier Zero by kind and owned by kind or Owned label membership', () => {
    expect(isTierZero({ kinds: ['Group', 'Tag_Tier_Zero'] })).toBe(true);
    expect(isTierZero({ kinds: ['Group'] })).toBe(false);
    expect(isOwned({ kinds: ['User', 'Tag_Owned'], objectId: 'a' }, new Set())).toBe(true);
    expect(isOwned({ kinds: ['User'], objectId: 'a' }, new Set(['a']))).toBe(true);
    expect(isOwned({ kinds: ['User'], objectId: 'b' }, new Set(['a']))).toBe(false);
  });
});
