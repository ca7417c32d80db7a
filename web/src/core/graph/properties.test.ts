import { describe, expect, it } from 'vitest';
import { formatProperty, orderedProperties } from './properties';

describe('entity properties', () => {
  it('formats times, booleans, lists and objects', () => {
    expect(formatProperty('lastlogon', 1700000000)).toBe('2023-11-14 22:13:20 UTC');
    expect(formatProperty('pwdlastset', -1)).toBe('Never');
    expect(formatProperty('enabled', true)).toBe('True');
    expect(formatProperty('serviceprincipalnames', ['a/b', 'c/d'])).toBe('a/b, c/d');
    expect(formatProperty('x', { a: 1 })).toBe('{"a":1}');
  });

  it('puts the name and object id first, then the rest by name, leaving out empty values', () => {
    const keys = orderedProperties({ zeta: 1, objectid: 'S', name: 'N', alpha: 2, empty: '' }).map(([k]) => k);
    expect(keys).toEqual(['name', 'objectid', 'alpha', 'zeta']);
  });
});
