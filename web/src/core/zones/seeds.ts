import type { SeedType } from '../../generated/graphql';

/**
 * Selector seeds as an administrator types them, one a line: `objectid:S-1-5-…`, `kind:User`, `rule:…`; a bare
 * value is an object id.
 */
export function parseSeeds(text: string): { type: SeedType; value: string }[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const m = /^(objectid|kind|rule)\s*:\s*(.+)$/i.exec(line);
      if (!m) return { type: 'OBJECTID' as const, value: line };
      return { type: m[1]!.toUpperCase() as SeedType, value: m[2]!.trim() };
    });
}

export const formatSeed = (s: { type: SeedType; value: string }) => `${s.type.toLowerCase()}:${s.value}`;
