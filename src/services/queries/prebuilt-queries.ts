import { badRequest, notFound } from '../../errors.js';
import { PREBUILT_QUERIES, SECTIONS, type Platform, type PrebuiltQuery } from './prebuilt/index.js';

const CONTEXT = 'prebuilt-queries';
const PLATFORMS: readonly Platform[] = ['Active Directory', 'Azure'];

export interface PrebuiltCategory {
  name: string;
  platform: Platform;
  queries: PrebuiltQuery[];
}

function platformOf(p: string | null | undefined): Platform | undefined {
  if (p === undefined || p === null || p === '') return undefined;
  const found = PLATFORMS.find((x) => x.toLowerCase() === p.toLowerCase());
  if (!found) throw badRequest(CONTEXT, `platform must be one of: ${PLATFORMS.join(', ')}.`);
  return found;
}

/** The pre-built queries a front-end lists (src/services/queries/prebuilt/), by category and platform. */
export function createPrebuiltQueriesService() {
  return {
    /** Queries, optionally of one category (a section name, any case) and one platform. */
    list(input: { category?: string | null; platform?: string | null } = {}): PrebuiltQuery[] {
      const platform = platformOf(input.platform);
      const category = input.category?.toLowerCase();
      return PREBUILT_QUERIES.filter((q) => (!platform || q.platform === platform) && (!category || q.category.toLowerCase() === category));
    },
    /** The sections in catalogue order (optionally one platform's, or those of one name), each with its queries. */
    categories(input: { platform?: string | null; category?: string | null } = {}): PrebuiltCategory[] {
      const platform = platformOf(input.platform);
      const category = input.category?.toLowerCase();
      const chosen = SECTIONS.filter((s) => (!platform || s.platform === platform) && (!category || s.category.toLowerCase() === category));
      return chosen.map((s) => ({
        name: s.category,
        platform: s.platform,
        queries: PREBUILT_QUERIES.filter((q) => q.category === s.category && q.platform === s.platform),
      }));
    },
    get(id: string): PrebuiltQuery {
      const q = PREBUILT_QUERIES.find((x) => x.id === id);
      if (!q) throw notFound(CONTEXT, `No pre-built query has the id "${id}".`);
      return q;
    },
  };
}

export type PrebuiltQueriesService = ReturnType<typeof createPrebuiltQueriesService>;
