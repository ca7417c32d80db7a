import type { Queryable } from '../../pool.js';
import { OP_SQL, type FilterOp } from '../collectors/events-store.js';

export interface TagHistoryRecord {
  id: number;
  createdAt: Date;
  actor: string;
  email: string | null;
  action: string;
  target: string;
  tagId: number;
  environmentId: string | null;
  note: string | null;
}

export type TagHistoryColumn = 'created_at' | 'actor' | 'email' | 'action' | 'target' | 'asset_group_tag_id' | 'environment_id' | 'note';
export interface TagHistoryFilter {
  column: TagHistoryColumn;
  op: FilterOp;
  value: string | number | Date;
}

/** The tag fields BloodHound's client reads besides ours: the zone's kind in the graph, analysis, glyph. */
export interface TagExtras {
  tagId: number;
  kindId: number | null;
  analysisEnabled: boolean | null;
  glyph: string | null;
  /** the legacy asset-group API's `tag`, when a legacy client named one */
  legacyTag: string | null;
}

export interface NameMatch {
  id: number;
  tagId: number;
}

/** What the legacy member list shows of a member besides our member fields. */
export interface MemberDetail {
  nodeId: number;
  environmentId: string;
  environmentKind: string;
  /** selected by a selector a user made (not a default one) */
  custom: boolean;
}

export interface MemberMatch extends NameMatch {
  objectId: string;
  name: string;
  kinds: string[];
  certified: number;
  certifiedBy: string | null;
}

// Column text comes only from this fixed map; values are always bound parameters.
const COLUMN_SQL: Record<TagHistoryColumn, string> = {
  created_at: 'created_at',
  actor: 'actor',
  email: 'email',
  action: 'action',
  target: 'target',
  asset_group_tag_id: 'asset_group_tag_id',
  environment_id: 'environment_id',
  note: 'note',
};

const RECORD = /* SQL */ `id::int, created_at as "createdAt", actor, email, action, target,
  asset_group_tag_id as "tagId", environment_id as "environmentId", note`;

// A zone's kind is Tag_<name, spaces as underscores> (cypher.ts names it the same way); null until the graph has it.
const EXTRAS = /* SQL */ `-- tagHistory.extras
select t.id as "tagId", t.analysis_enabled as "analysisEnabled", t.glyph, t.legacy_tag as "legacyTag",
  (select k.id from graph_kinds k
    where k.name = case when t.type = 3 then 'Tag_Owned' else 'Tag_' || regexp_replace(btrim(t.name), '\\s+', '_', 'g') end)::int as "kindId"
from asset_group_tags t where t.id = any($1::int[])`;

/** BloodHound's zone and label history, the tag fields kept beside ours, and name look-ups for tag search. */
export function createTagHistoryStore(db: Queryable) {
  return {
    /** One change; the actor's email address is the user's (none for the system). */
    async add(r: Omit<TagHistoryRecord, 'id' | 'createdAt' | 'email'>): Promise<void> {
      await db.execute(
        `-- tagHistory.add
insert into asset_group_tag_history (actor, email, action, target, asset_group_tag_id, environment_id, note)
values ($1, (select email_address from users where id::text = $1), $2, $3, $4, $5, $6)`,
        [r.actor, r.action, r.target, r.tagId, r.environmentId, r.note],
      );
    },

    /** Certification changes of nodes: target is the object id, the tag the node's highest-priority zone. */
    async addCertifications(actor: string, action: string, nodeIds: readonly number[], note: string | null): Promise<void> {
      await db.execute(
        `-- tagHistory.addCertifications
insert into asset_group_tag_history (actor, email, action, target, asset_group_tag_id, environment_id, note)
select $1, (select email_address from users where id::text = $1), $2, n.objectid,
  coalesce((select t.id from asset_group_tag_selector_nodes sn join asset_group_tag_selectors s on s.id = sn.selector_id
     join asset_group_tags t on t.id = s.asset_group_tag_id where sn.node_id = n.id and t.type = 1
     order by t.position, s.id limit 1), 0),
  coalesce(n.properties ->> 'domainsid', n.properties ->> 'tenantid'), $4
from graph_nodes n where n.id = any($3::bigint[]) order by n.id`,
        [actor, action, nodeIds, note],
      );
    },

    /** A page of history, filters ANDed, `query` (search) matching actor, email, action or target. */
    async list(input: {
      filters: readonly TagHistoryFilter[];
      query: string | null;
      descending: boolean;
      skip: number;
      limit: number;
    }): Promise<{ total: number; records: TagHistoryRecord[] }> {
      const params: unknown[] = [input.skip, input.limit];
      const where = input.filters.map((f) => {
        params.push(f.value);
        const op = OP_SQL[f.op];
        const value = f.op === '~eq' ? `'%' || $${params.length}::text || '%'` : `$${params.length}`;
        return `${COLUMN_SQL[f.column]} ${op} ${value}`;
      });
      if (input.query) {
        params.push(`%${input.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        const p = `$${params.length}`;
        where.push(`(actor ilike ${p} or email ilike ${p} or action ilike ${p} or target ilike ${p})`);
      }
      const dir = input.descending ? 'desc' : 'asc';
      const rows = await db.query<TagHistoryRecord & { total: number }>(
        `-- tagHistory.list
select ${RECORD}, count(*) over ()::int as total from asset_group_tag_history
${where.length ? `where ${where.join(' and ')}` : ''}
order by created_at ${dir}, id ${dir} offset $1 limit $2`,
        params,
      );
      return { total: rows[0]?.total ?? 0, records: rows.map(({ total: _total, ...r }) => r) };
    },

    async extras(tagIds: readonly number[]): Promise<TagExtras[]> {
      return db.query<TagExtras>(EXTRAS, [tagIds]);
    },

    async setExtras(tagId: number, e: { analysisEnabled?: boolean | null; glyph?: string | null; legacyTag?: string }): Promise<void> {
      await db.execute(
        `-- tagHistory.setExtras
update asset_group_tags set
  analysis_enabled = case when $2::boolean then $3::boolean else analysis_enabled end,
  glyph = case when $4::boolean then nullif($5::text, '') else glyph end,
  legacy_tag = coalesce($6, legacy_tag)
where id = $1`,
        [tagId, e.analysisEnabled !== undefined, e.analysisEnabled ?? null, e.glyph !== undefined, e.glyph ?? null, e.legacyTag ?? null],
      );
    },

    async memberDetails(tagId: number, nodeIds: readonly number[]): Promise<MemberDetail[]> {
      return db.query<MemberDetail>(
        `-- tagHistory.memberDetails
select n.id::int as "nodeId",
  coalesce(n.properties ->> 'domainsid', n.properties ->> 'tenantid', '') as "environmentId",
  case when n.properties ? 'tenantid' and not n.properties ? 'domainsid' then 'AZTenant'
       when n.properties ? 'domainsid' then 'Domain' else '' end as "environmentKind",
  exists (select 1 from asset_group_tag_selector_nodes sn join asset_group_tag_selectors s on s.id = sn.selector_id
          where sn.node_id = n.id and s.asset_group_tag_id = $1 and not s.is_default) as custom
from graph_nodes n where n.id = any($2::bigint[])`,
        [tagId, nodeIds],
      );
    },

    /** Tags (of a type) and selectors (of such tags, or of one tag) whose names contain the text. */
    async searchNames(text: string, tagType: number, tagId: number | null, limit: number) {
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const [tags, selectors] = await Promise.all([
        db.query<{ id: number }>(
          `-- tagHistory.searchTags
select id from asset_group_tags where type = $1 and ($2::int is null or id = $2) and name ilike $3 order by id limit $4`,
          [tagType, tagId, like, limit],
        ),
        db.query<NameMatch>(
          `-- tagHistory.searchSelectors
select s.id, s.asset_group_tag_id as "tagId" from asset_group_tag_selectors s join asset_group_tags t on t.id = s.asset_group_tag_id
where t.type = $1 and ($2::int is null or t.id = $2) and s.name ilike $3 order by s.id limit $4`,
          [tagType, tagId, like, limit],
        ),
      ]);
      return { tagIds: tags.map((t) => t.id), selectors };
    },

    /** Members (graph node ids with their tag) of such tags whose name or object id contains the text. */
    async searchMembers(text: string, tagType: number, tagId: number | null, limit: number): Promise<MemberMatch[]> {
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return db.query<MemberMatch>(
        `-- tagHistory.searchMembers
select sn.node_id::int as id, t.id as "tagId", n.objectid as "objectId",
  coalesce(n.properties ->> 'name', n.objectid) as name,
  array(select k.name from unnest(n.kind_ids) with ordinality u(id, o) join graph_kinds k on k.id = u.id order by u.o) as kinds,
  max(sn.certified)::int as certified, (array_agg(sn.certified_by order by sn.certified desc))[1] as "certifiedBy"
from asset_group_tag_selector_nodes sn join asset_group_tag_selectors s on s.id = sn.selector_id
join asset_group_tags t on t.id = s.asset_group_tag_id join graph_nodes n on n.id = sn.node_id
where t.type = $1 and ($2::int is null or t.id = $2) and (n.objectid ilike $3 or n.properties ->> 'name' ilike $3)
group by sn.node_id, t.id, n.id order by sn.node_id, t.id limit $4`,
        [tagType, tagId, like, limit],
      );
    },
  };
}

export type TagHistoryStore = ReturnType<typeof createTagHistoryStore>;
