import type { Queryable } from '../../pool.js';
import { OP_SQL, type FilterOp } from '../collectors/events-store.js';

/**
 * objectid and kind select nodes directly; rule is a Tier Zero selector rule (src/analysis/tier-zero-rules.ts);
 * cypher is a Cypher query whose returned nodes are selected (src/services/zones/cypher-seeds.ts).
 */
export type SeedType = 'objectid' | 'kind' | 'rule' | 'cypher';
export interface Seed {
  type: SeedType;
  value: string;
}

export interface TagModel {
  id: number;
  /** 1 zone, 2 label */
  type: number;
  name: string;
  description: string;
  position: number | null;
  requireCertify: boolean;
  memberCount: number;
  createdAt: Date;
  createdBy: string;
  updatedAt: Date;
  updatedBy: string;
}

export interface SelectorModel {
  id: number;
  tagId: number;
  name: string;
  description: string;
  seeds: (Seed & { selectorId: number })[];
  autoCertify: boolean;
  isDefault: boolean;
  memberCount: number;
  createdAt: Date;
  createdBy: string;
  updatedAt: Date;
  updatedBy: string;
}

/** A member of a tag: a graph node with its certification in that tag (the best of its selector rows). */
export interface MemberRow {
  nodeId: number;
  tagId: number;
  certified: number;
  certifiedBy: string | null;
}

/** One selector row of a node, in priority order (zone position, then selector id). */
export interface SelectorNodeRow {
  selectorId: number;
  tagId: number;
  nodeId: number;
  certified: number;
}

export interface CertificationModel {
  id: number;
  nodeId: number;
  selectorId: number | null;
  tagId: number | null;
  action: number;
  previous: number;
  note: string;
  actor: string;
  createdAt: Date;
}

/** Filterable columns of the member certification list (BloodHound's names) and their predicates. */
export type CertificationColumn =
  'asset_group_tag_id' | 'certified' | 'certified_by' | 'created_at' | 'environments' | 'name' | 'object_id' | 'primary_kind';
/** The predicates of BloodHound's query filters, as the event list takes them. */
export type CertificationOp = FilterOp;
export interface CertificationFilter {
  column: CertificationColumn;
  op: CertificationOp;
  value: string | number | Date;
}

/** A zone member with its current certification: its highest-priority certifying zone, first seen then. */
export interface MemberCertificationRow extends MemberRow {
  environmentId: string;
  createdAt: Date;
}

const TAG = /* SQL */ `t.id, t.type, t.name, t.description, t.position, t.require_certify as "requireCertify",
  (select count(distinct sn.node_id) from asset_group_tag_selector_nodes sn
     join asset_group_tag_selectors s on s.id = sn.selector_id where s.asset_group_tag_id = t.id)::int as "memberCount",
  t.created_at as "createdAt", t.created_by as "createdBy", t.updated_at as "updatedAt", t.updated_by as "updatedBy"`;
// Each seed carries its selector's id, as BloodHound's SelectorSeed rows do.
const SELECTOR = /* SQL */ `s.id, s.asset_group_tag_id as "tagId", s.name, s.description,
  (select coalesce(jsonb_agg(e.seed || jsonb_build_object('selectorId', s.id) order by e.n), '[]'::jsonb)
     from jsonb_array_elements(s.seeds) with ordinality as e(seed, n)) as seeds, s.auto_certify as "autoCertify",
  s.is_default as "isDefault",
  (select count(*) from asset_group_tag_selector_nodes sn where sn.selector_id = s.id)::int as "memberCount",
  s.created_at as "createdAt", s.created_by as "createdBy", s.updated_at as "updatedAt", s.updated_by as "updatedBy"`;

const SQL = {
  listTags: /* SQL */ `-- tags.list
select ${TAG} from asset_group_tags t order by t.type, t.position nulls last, t.name`,
  getTag: /* SQL */ `-- tags.get
select ${TAG} from asset_group_tags t where t.id = $1`,
  createTag: /* SQL */ `-- tags.create
insert into asset_group_tags (type, name, description, position, require_certify, created_by, updated_by)
values ($1::smallint, $2, $3,
  case when $1::smallint = 1 then coalesce($4::int, (select coalesce(max(position), 0) + 1 from asset_group_tags where type = 1)) end,
  $5, $6, $6) returning id`,
  updateTag: /* SQL */ `-- tags.update
update asset_group_tags set name = coalesce($2, name), description = coalesce($3, description),
  require_certify = coalesce($4, require_certify), updated_by = $5, updated_at = now() where id = $1`,
  deleteTag: /* SQL */ `-- tags.delete
delete from asset_group_tags where id = $1`,
  listSelectors: /* SQL */ `-- tags.listSelectors
select ${SELECTOR} from asset_group_tag_selectors s where s.asset_group_tag_id = $1 order by s.id`,
  // BloodHound analyses Tier Zero always, labels always, any other zone only while its analysis_enabled is true.
  analysedSelectors: /* SQL */ `-- tags.analysedSelectors
select ${SELECTOR} from asset_group_tag_selectors s
join asset_group_tags t on t.id = s.asset_group_tag_id
where t.type <> 1 or t.position = 1 or t.analysis_enabled
order by s.id`,
  tierZeroSeeds: /* SQL */ `-- tags.tierZeroSeeds
select seed->>'type' as type, seed->>'value' as value
from asset_group_tags t
join asset_group_tag_selectors s on s.asset_group_tag_id = t.id
cross join lateral jsonb_array_elements(s.seeds) seed
where t.type = 1 and t.position = 1
order by s.id`,
  getSelector: /* SQL */ `-- tags.getSelector
select ${SELECTOR} from asset_group_tag_selectors s where s.id = $1`,
  createSelector: /* SQL */ `-- tags.createSelector
insert into asset_group_tag_selectors (asset_group_tag_id, name, description, seeds, auto_certify, created_by, updated_by)
values ($1, $2, $3, $4, $5, $6, $6) returning id`,
  updateSelector: /* SQL */ `-- tags.updateSelector
update asset_group_tag_selectors set name = coalesce($2, name), description = coalesce($3, description),
  seeds = coalesce($4, seeds), auto_certify = coalesce($5, auto_certify), updated_by = $6, updated_at = now() where id = $1`,
  deleteSelector: /* SQL */ `-- tags.deleteSelector
delete from asset_group_tag_selectors where id = $1`,
  // New members start pending (or automatic on auto-certify selectors); members no longer selected leave.
  syncSelector: /* SQL */ `-- tags.syncSelector
with wanted as (select unnest($2::bigint[]) as node_id),
gone as (delete from asset_group_tag_selector_nodes sn where sn.selector_id = $1 and sn.node_id <> all($2::bigint[]))
insert into asset_group_tag_selector_nodes (selector_id, node_id, certified)
select $1, w.node_id, case when $3 then 3 else 0 end from wanted w
on conflict (selector_id, node_id) do nothing`,
  members: /* SQL */ `-- tags.members
select sn.node_id as "nodeId", s.asset_group_tag_id as "tagId", max(sn.certified)::int as certified,
  (array_agg(sn.certified_by order by sn.certified desc))[1] as "certifiedBy", count(*) over ()::int as total
from asset_group_tag_selector_nodes sn join asset_group_tag_selectors s on s.id = sn.selector_id
where s.asset_group_tag_id = $1 and ($2::int is null or s.id = $2) and ($5::bigint is null or sn.node_id = $5)
group by sn.node_id, s.asset_group_tag_id order by sn.node_id offset $3 limit $4`,
  selectorRowsOfNodes: /* SQL */ `-- tags.selectorRowsOfNodes
select sn.selector_id as "selectorId", s.asset_group_tag_id as "tagId", sn.node_id as "nodeId", sn.certified
from asset_group_tag_selector_nodes sn join asset_group_tag_selectors s on s.id = sn.selector_id
join asset_group_tags t on t.id = s.asset_group_tag_id
where sn.node_id = any($1::bigint[]) and t.type = 1
order by sn.node_id, t.position, s.id
for update of sn`,
  setCertified: /* SQL */ `-- tags.setCertified
update asset_group_tag_selector_nodes set certified = $3, certified_by = $4, updated_at = now()
where selector_id = $1 and node_id = $2`,
  addHistory: /* SQL */ `-- tags.addHistory
insert into asset_group_certifications (node_id, selector_id, tag_id, action, previous, note, actor)
values ($1, $2, $3, $4, $5, $6, $7)`,
  history: /* SQL */ `-- tags.history
select id, node_id as "nodeId", selector_id as "selectorId", tag_id as "tagId", action, previous, note, actor,
  created_at as "createdAt" from asset_group_certifications where node_id = $1 order by id`,
  // Every certification change, newest first (BloodHound's certification list); count over the whole filter.
  certifications: /* SQL */ `-- tags.certifications
select id, node_id as "nodeId", selector_id as "selectorId", tag_id as "tagId", action, previous, note, actor,
  created_at as "createdAt", count(*) over ()::int as total
from asset_group_certifications where ($3::int is null or tag_id = $3) order by id desc offset $1 limit $2`,
  // One row per node: its highest-priority zone that requires certification (the zone certify acts on), with the
  // best state of its selector rows there and when it was first selected. Node fields come from the graph so
  // that filters and the count cover the whole list; `where` holds only fixed column text (certificationWhere).
  memberCertifications: (where: string) => /* SQL */ `-- tags.memberCertifications
with zoned as (
  select distinct on (sn.node_id) sn.node_id, t.id as tag_id
  from asset_group_tag_selector_nodes sn join asset_group_tag_selectors s on s.id = sn.selector_id
  join asset_group_tags t on t.id = s.asset_group_tag_id
  where t.type = 1 and t.require_certify
  order by sn.node_id, t.position, s.id
), m as (
  select z.node_id, z.tag_id, max(sn.certified)::int as certified,
    (array_agg(sn.certified_by order by sn.certified desc))[1] as certified_by, min(sn.created_at) as created_at
  from zoned z join asset_group_tag_selectors s on s.asset_group_tag_id = z.tag_id
  join asset_group_tag_selector_nodes sn on sn.selector_id = s.id and sn.node_id = z.node_id
  group by z.node_id, z.tag_id
)
select m.node_id as "nodeId", m.tag_id as "tagId", m.certified, m.certified_by as "certifiedBy",
  m.created_at as "createdAt", coalesce(n.properties ->> 'domainsid', n.properties ->> 'tenantid', '') as "environmentId",
  count(*) over ()::int as total
from m join graph_nodes n on n.id = m.node_id
${where}
order by m.created_at, m.node_id offset $1 limit $2`,
  selectorsOfNode: /* SQL */ `-- tags.selectorsOfNode
select ${SELECTOR} from asset_group_tag_selectors s
join asset_group_tag_selector_nodes sn on sn.selector_id = s.id where sn.node_id = $1 and s.asset_group_tag_id = $2 order by s.id`,
};

// Column and operator text come only from these fixed maps; values are always bound parameters.
const CERTIFICATION_COLUMN_SQL: Record<Exclude<CertificationColumn, 'primary_kind'>, string> = {
  asset_group_tag_id: 'm.tag_id',
  certified: 'm.certified',
  certified_by: 'm.certified_by',
  created_at: 'm.created_at',
  environments: `coalesce(n.properties ->> 'domainsid', n.properties ->> 'tenantid', '')`,
  name: 'coalesce(n.name, n.objectid)',
  object_id: 'n.objectid',
};

/** The where clause of the certification list, pushing the filter values onto `params` (after skip and limit). */
function certificationWhere(filters: readonly CertificationFilter[], params: unknown[]): string {
  const where = filters.map((f) => {
    params.push(f.op === '~eq' ? `%${String(f.value).replace(/[\\%_]/g, '\\$&')}%` : f.value);
    const $ = `$${params.length}`;
    if (f.column !== 'primary_kind') return `${CERTIFICATION_COLUMN_SQL[f.column]} ${OP_SQL[f.op]} ${$}`;
    // A node's kinds are ids; the kind filter asks whether one of its kinds has the name (neq: none has).
    const has = `exists (select 1 from graph_kinds k where k.id = any(n.kind_ids) and k.name ${f.op === '~eq' ? 'ilike' : '='} ${$})`;
    return f.op === 'neq' ? `not ${has}` : has;
  });
  return where.length ? `where ${where.join(' and ')}` : '';
}

export function createTagsStore(db: Queryable) {
  return {
    listTags: () => db.query<TagModel>(SQL.listTags),
    async getTag(id: number): Promise<TagModel | undefined> {
      return (await db.query<TagModel>(SQL.getTag, [id]))[0];
    },
    async createTag(t: {
      type: number;
      name: string;
      description: string;
      position: number | null;
      requireCertify: boolean;
      actor: string;
    }) {
      return (await db.query<{ id: number }>(SQL.createTag, [t.type, t.name, t.description, t.position, t.requireCertify, t.actor]))[0]!.id;
    },
    async updateTag(id: number, u: { name?: string; description?: string; requireCertify?: boolean; actor: string }): Promise<void> {
      await db.execute(SQL.updateTag, [id, u.name ?? null, u.description ?? null, u.requireCertify ?? null, u.actor]);
    },
    async deleteTag(id: number): Promise<boolean> {
      return (await db.execute(SQL.deleteTag, [id])) > 0;
    },
    listSelectors: (tagId: number) => db.query<SelectorModel>(SQL.listSelectors, [tagId]),
    /** The selectors analysis re-evaluates: those of labels, of Tier Zero and of zones with analysis enabled. */
    analysedSelectors: () => db.query<SelectorModel>(SQL.analysedSelectors),
    /** Every seed of the Tier Zero zone's selectors: what analysis tags as tier zero. */
    tierZeroSeeds: () => db.query<Seed>(SQL.tierZeroSeeds),
    async getSelector(id: number): Promise<SelectorModel | undefined> {
      return (await db.query<SelectorModel>(SQL.getSelector, [id]))[0];
    },
    async createSelector(s: { tagId: number; name: string; description: string; seeds: Seed[]; autoCertify: boolean; actor: string }) {
      const row = await db.query<{ id: number }>(SQL.createSelector, [
        s.tagId,
        s.name,
        s.description,
        JSON.stringify(s.seeds),
        s.autoCertify,
        s.actor,
      ]);
      return row[0]!.id;
    },
    async updateSelector(id: number, u: { name?: string; description?: string; seeds?: Seed[]; autoCertify?: boolean; actor: string }) {
      await db.execute(SQL.updateSelector, [
        id,
        u.name ?? null,
        u.description ?? null,
        u.seeds ? JSON.stringify(u.seeds) : null,
        u.autoCertify ?? null,
        u.actor,
      ]);
    },
    async deleteSelector(id: number): Promise<boolean> {
      return (await db.execute(SQL.deleteSelector, [id])) > 0;
    },
    async syncSelector(id: number, nodeIds: readonly number[], autoCertify: boolean): Promise<void> {
      await db.execute(SQL.syncSelector, [id, nodeIds, autoCertify]);
    },
    async members(tagId: number, selectorId: number | null, skip: number, limit: number): Promise<{ total: number; members: MemberRow[] }> {
      const rows = await db.query<MemberRow & { total: number }>(SQL.members, [tagId, selectorId, skip, limit, null]);
      return { total: rows[0]?.total ?? 0, members: rows.map(({ total: _, ...m }) => m) };
    },
    async member(tagId: number, nodeId: number): Promise<MemberRow | undefined> {
      const rows = await db.query<MemberRow & { total: number }>(SQL.members, [tagId, null, 0, 1, nodeId]);
      return rows.map(({ total: _, ...m }) => m)[0];
    },
    /** Zone selector rows of the nodes, locked for the certification transaction. */
    selectorRowsOfNodes: (nodeIds: readonly number[]) => db.query<SelectorNodeRow>(SQL.selectorRowsOfNodes, [nodeIds]),
    async setCertified(selectorId: number, nodeId: number, certified: number, by: string | null): Promise<void> {
      await db.execute(SQL.setCertified, [selectorId, nodeId, certified, by]);
    },
    async addHistory(h: Omit<CertificationModel, 'id' | 'createdAt'>): Promise<void> {
      await db.execute(SQL.addHistory, [h.nodeId, h.selectorId, h.tagId, h.action, h.previous, h.note, h.actor]);
    },
    history: (nodeId: number) => db.query<CertificationModel>(SQL.history, [nodeId]),
    async certifications(skip: number, limit: number, tagId: number | null): Promise<{ total: number; records: CertificationModel[] }> {
      const rows = await db.query<CertificationModel & { total: number }>(SQL.certifications, [skip, limit, tagId]);
      return { total: rows[0]?.total ?? 0, records: rows.map(({ total: _, ...r }) => r) };
    },
    async memberCertifications(
      filters: readonly CertificationFilter[],
      skip: number,
      limit: number,
    ): Promise<{ total: number; members: MemberCertificationRow[] }> {
      const params: unknown[] = [skip, limit];
      const sql = SQL.memberCertifications(certificationWhere(filters, params));
      const rows = await db.query<MemberCertificationRow & { total: number }>(sql, params);
      return { total: rows[0]?.total ?? 0, members: rows.map(({ total: _, ...m }) => m) };
    },
    selectorsOfNode: (nodeId: number, tagId: number) => db.query<SelectorModel>(SQL.selectorsOfNode, [nodeId, tagId]),
  };
}

export type TagsStore = ReturnType<typeof createTagsStore>;
