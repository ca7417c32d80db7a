import { describe, expect, it } from 'vitest';
import { formatSeed, parseSeeds } from './seeds';

describe('selector seeds', () => {
  it('reads one seed a line, typed by its prefix, a bare value being an object id', () => {
    expect(parseSeeds('kind:User\n\n objectid: S-1-5-21-1-512 \nS-1-5-21-1-500\nrule:kind:Computer')).toEqual([
      { type: 'KIND', value: 'User' },
      { type: 'OBJECTID', value: 'S-1-5-21-1-512' },
      { type: 'OBJECTID', value: 'S-1-5-21-1-500' },
      { type: 'RULE', value: 'kind:Computer' },
    ]);
    expect(formatSeed({ type: 'KIND', value: 'User' })).toBe('kind:User');
  });
});
