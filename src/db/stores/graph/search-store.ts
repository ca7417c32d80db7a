import type { Queryable } from '../../pool.js';

/**
 * Node search and the graph's inventories (domains, kinds) for the analyst's starting point. Patterns arrive with
 * LIKE wildcards already escaped (search service); matching is on lower(name) and the upper-cased object id, the
 * expressions migration 0017 indexes.
 */

export interface SearchHit {
  id: number;
}

// Exact matches first, then name prefixes, then the rest by name: what a type-ahead box wants at the top.
const SEARCH = /* SQL */ `-- search.nodes
with hits as (
  select n.id, n.name, n.objectid from graph_nodes n
  where (lower(n.name) like $1 escape '\\' or n.objectid like $2 escape '\\')
    and ($3::text[] is null or n.kind_ids && array(select k.id from graph_kinds k where k.name = any($3::text[])))
)
select id, count(*) over ()::int as total from hits
order by (lower(name) = $4 or objectid = upper($4)) desc, (lower(name) like $5 escape '\\') desc, name nulls last, id desc
offset $6 limit $7`;

const DOMAINS = /* SQL */ `-- search.domains
select n.objectid as "objectId", coalesce(n.name, n.properties ->> 'displayname', n.objectid) as name,
       k.name as kind, coalesce((n.properties ->> 'collected')::boolean, false) as collected
from graph_nodes n join graph_kinds k on k.id = any(n.kind_ids)
where k.name in ('Domain', 'AZTenant')
order by name`;

const NODE_KINDS = /* SQL */ `-- search.nodeKinds
select k.name from graph_kinds k where exists (select 1 from graph_nodes n where n.kind_ids @> array[k.id]) order by k.name`;

const EDGE_KINDS = /* SQL */ `-- search.edgeKinds
select k.name from graph_kinds k where exists (select 1 from graph_edges e where e.kind_id = k.id) order by k.name`;

export function createSearchStore(db: Queryable) {
  return {
    /** Node ids matching, in display order, and the number of all matches. */
    async search(p: {
      namePattern: string;
      idPattern: string;
      kinds: string[] | null;
      exact: string;
      prefix: string;
      skip: number;
      limit: number;
    }) {
      const rows = await db.query<{ id: number; total: number }>(SEARCH, [
        p.namePattern,
        p.idPattern,
        p.kinds,
        p.exact,
        p.prefix,
        p.skip,
        p.limit,
      ]);
      return { ids: rows.map((r) => Number(r.id)), total: rows[0]?.total ?? null };
    },
    async countOnly(p: { namePattern: string; idPattern: string; kinds: string[] | null; exact: string; prefix: string }): Promise<number> {
      const rows = await db.query<{ id: number; total: number }>(SEARCH, [p.namePattern, p.idPattern, p.kinds, p.exact, p.prefix, 0, 1]);
      return rows[0]?.total ?? 0;
    },
    domains: () => db.query<{ objectId: string; name: string; kind: string; collected: boolean }>(DOMAINS),
    async kinds(category: 'NODE' | 'EDGE'): Promise<string[]> {
      return (await db.query<{ name: string }>(category === 'NODE' ? NODE_KINDS : EDGE_KINDS)).map((r) => r.name);
    },
  };
}

export type SearchStore = ReturnType<typeof createSearchStore>;
