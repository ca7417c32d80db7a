import type { FeatureFlagModel } from '../../db/stores/app/features-store.js';
import fs from 'node:fs';
import path from 'node:path';
import { primaryKind } from '../../graph/kinds.js';
import type { GraphStore } from '../../graph/store.js';
import type { SearchStore } from '../../db/stores/graph/search-store.js';
import { badRequest } from '../../errors.js';
import { paging } from '../common/paging.js';
import type { EditionValue } from '../app/edition.js';

export type SearchMode = 'PREFIX' | 'CONTAINS';

const MAX_QUERY = 256;
const KIND = /^[A-Za-z0-9_]{1,64}$/;

/** LIKE's wildcards in a user's term match themselves. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Search by name or object id, and the graph's inventories: where an analyst starts. */
export function createSearchService(deps: {
  search: SearchStore;
  graph: GraphStore;
  edition: EditionValue;
  /** The feature flags as they stand (the features service). */
  features: () => Promise<FeatureFlagModel[]>;
}) {
  const { search, graph } = deps;
  return {
    async search(
      context: string,
      input: { query: string; kinds?: readonly string[] | null; mode?: SearchMode | null; skip?: number | null; limit?: number | null },
    ) {
      const term = input.query.trim();
      if (!term) throw badRequest(context, 'The search query must not be empty.');
      if (term.length > MAX_QUERY) throw badRequest(context, `The search query must be at most ${MAX_QUERY} characters.`);
      const kinds = input.kinds?.length ? [...input.kinds] : null;
      const bad = kinds?.find((k) => !KIND.test(k));
      if (bad !== undefined) throw badRequest(context, `"${bad.slice(0, 64)}" is not a node kind.`);
      const page = paging(context, input, { limit: 10, max: 1000 });
      const lower = escapeLike(term.toLowerCase());
      const upper = escapeLike(term.toUpperCase());
      const any = input.mode === 'CONTAINS' ? '%' : '';
      const params = {
        namePattern: `${any}${lower}%`,
        idPattern: `${any}${upper}%`,
        kinds,
        exact: term.toLowerCase(),
        prefix: `${lower}%`,
      };
      const found = await search.search(Object.assign({}, params, { skip: page.skip, limit: page.limit })); // not a spread (graph/format.ts)
      // An empty page past the end still reports how many there are.
      const total = found.total ?? (page.skip > 0 ? await search.countOnly(params) : 0);
      const byId = new Map((await graph.nodeSummaries(found.ids)).map((s) => [Number(s.id), s]));
      const nodes = found.ids.flatMap((id) => {
        const s = byId.get(id);
        return s ? [{ objectId: s.objectid, name: s.name ?? '', label: primaryKind(s.kinds), kinds: s.kinds }] : [];
      });
      return { totalCount: total, skip: page.skip, limit: page.limit, nodes };
    },

    async availableDomains() {
      return (await search.domains()).map((d) => ({
        objectId: d.objectId,
        name: d.name,
        type: d.kind === 'AZTenant' ? ('AZURE' as const) : ('ACTIVE_DIRECTORY' as const),
        collected: d.collected,
      }));
    },

    kinds: (category: 'NODE' | 'EDGE') => search.kinds(category),

    async info() {
      return { apiVersion: 'v2', serverVersion: serverVersion(), edition: deps.edition, features: await deps.features() };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

let version: string | undefined;
/** package.json's version; `<repo>/package.json` from src/services (tests) and dist/services alike. */
function serverVersion(): string {
  if (version === undefined) {
    try {
      version = String(
        (JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string }).version ??
          '0.0.0',
      );
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}
