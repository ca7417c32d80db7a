import { ACTIVE_DIRECTORY } from './active-directory.js';
import { ADCS_AND_NTLM } from './adcs-ntlm.js';
import { AZURE } from './azure.js';
import type { PrebuiltQuery, Section } from './types.js';

export type { Platform, PrebuiltQuery } from './types.js';

/** The catalogue's sections in the order a front-end lists them (BloodHound's order of its pre-built searches). */
export const SECTIONS: readonly Section[] = [...ACTIVE_DIRECTORY, ...ADCS_AND_NTLM, ...AZURE];

/** Every pre-built query, flat, each with its section's category and platform. */
export const PREBUILT_QUERIES: readonly PrebuiltQuery[] = SECTIONS.flatMap((s) =>
  s.queries.map((q) => ({
    id: q.id,
    name: q.name,
    category: s.category,
    platform: s.platform,
    description: q.description,
    query: q.query,
  })),
);
