import type { UserSession } from '../../auth/session.js';
import type { FilterOp } from '../../db/stores/collectors/events-store.js';
import type { TagHistoryColumn, TagHistoryFilter, TagHistoryStore } from '../../db/stores/zones/tag-history-store.js';
import { badRequest } from '../../errors.js';
import { paging } from '../common/paging.js';
import type { AssetGroupsService, CertificationAction, SelectorInput, TagInput } from './asset-groups.js';
import { CERTIFICATION_ACTION, TAG_TYPE } from './asset-groups.js';

const CONTEXT = 'asset-group-tags';

export type { TagHistoryColumn };

/** BloodHound's AssetGroupHistoryAction names. */
export const HISTORY_ACTION = {
  createTag: 'CreateTag',
  updateTag: 'UpdateTag',
  deleteTag: 'DeleteTag',
  analysisEnabled: 'AnalysisEnabledTag',
  analysisDisabled: 'AnalysisDisabledTag',
  createSelector: 'CreateSelector',
  updateSelector: 'UpdateSelector',
  deleteSelector: 'DeleteSelector',
  certifyManual: 'CertifyNodeManual',
  certifyRevoked: 'CertifyNodeRevoked',
} as const;

/** The tag fields BloodHound's client sends besides ours. */
export interface TagExtrasInput {
  analysisEnabled?: boolean | null;
  glyph?: string | null;
}

const TEXT_OPS: FilterOp[] = ['eq', 'neq', '~eq'];
const ORDERED_OPS: FilterOp[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
/** Filterable history columns (BloodHound's query parameters) with their value type. */
export const HISTORY_FILTERS: Record<TagHistoryColumn, 'text' | 'int' | 'time'> = {
  created_at: 'time',
  actor: 'text',
  email: 'text',
  action: 'text',
  target: 'text',
  asset_group_tag_id: 'int',
  environment_id: 'text',
  note: 'text',
};

/** `predicate:value` of one column → a typed filter; a 400 naming the column otherwise. */
export function historyFilter(column: TagHistoryColumn, raw: string): TagHistoryFilter {
  const type = HISTORY_FILTERS[column];
  const m = /^(eq|~eq|neq|gt|gte|lt|lte):/.exec(raw);
  const op = (m?.[1] ?? 'eq') as FilterOp;
  const ops = type === 'text' ? TEXT_OPS : ORDERED_OPS;
  if (!ops.includes(op)) throw badRequest(CONTEXT, `${column} takes the predicates ${ops.join(', ')}; not ${op}.`);
  const text = m ? raw.slice(m[0].length) : raw;
  if (type === 'int') {
    if (!/^-?[0-9]{1,10}$/.test(text)) throw badRequest(CONTEXT, `${column} must be an integer, with an optional predicate.`);
    return { column, op, value: Number(text) };
  }
  if (type === 'time') {
    const d = new Date(text);
    if (!/^\d{4}-\d{2}-\d{2}([Tt ].+)?$/.test(text) || Number.isNaN(d.getTime()))
      throw badRequest(CONTEXT, `${column} must be an RFC 3339 time, with an optional predicate.`);
    return { column, op, value: d };
  }
  return { column, op, value: text };
}

const glyphOf = (v: string | null | undefined) => {
  if (v != null && v.length > 100) throw badRequest(CONTEXT, 'glyph must be an icon name of at most 100 characters.');
  return v;
};

/**
 * Zones and labels as BloodHound records them: every change of a tag, selector or certification goes to the
 * history (in the mutation's unit of work: the change and its row commit together), and the tag fields
 * analysis_enabled and glyph.
 * Wraps the asset-groups service, so every caller (REST, GraphQL, the legacy asset-group routes) is recorded.
 */
export function withTagHistory(inner: AssetGroupsService, store: TagHistoryStore) {
  const record = (s: UserSession | undefined, action: string, target: string, tagId: number, note: string | null = null) =>
    store.add({ actor: s?.userId ?? 'SYSTEM', action, target, tagId, environmentId: null, note });

  const wrapped = {
    ...inner,
    async createTag(s: UserSession, input: TagInput & TagExtrasInput) {
      const glyph = glyphOf(input.glyph);
      const t = await inner.createTag(s, input);
      // BloodHound: a new zone is not analysed until enabled; a label carries no flag.
      const analysisEnabled = t.type === TAG_TYPE.zone ? (input.analysisEnabled ?? false) : null;
      await store.setExtras(t.id, { analysisEnabled, glyph: glyph ?? null });
      await record(s, HISTORY_ACTION.createTag, t.name, t.id);
      return t;
    },
    async updateTag(s: UserSession, id: number, input: Omit<TagInput, 'type' | 'position'> & TagExtrasInput) {
      const glyph = glyphOf(input.glyph);
      const current = await inner.getTag(id);
      if (input.analysisEnabled === false && current.type === TAG_TYPE.zone && current.position === 1) {
        throw badRequest(CONTEXT, 'Tier Zero is always analysed: analysis_enabled cannot be turned off.');
      }
      const [before] = await store.extras([id]);
      const t = await inner.updateTag(s, id, input);
      const analysisEnabled = t.type === TAG_TYPE.zone ? (input.analysisEnabled ?? undefined) : undefined;
      await store.setExtras(id, { analysisEnabled, glyph: glyph === undefined ? undefined : glyph });
      await record(s, HISTORY_ACTION.updateTag, t.name, id);
      if (analysisEnabled !== undefined && analysisEnabled !== (before?.analysisEnabled ?? false)) {
        await record(s, analysisEnabled ? HISTORY_ACTION.analysisEnabled : HISTORY_ACTION.analysisDisabled, t.name, id);
        // Analysis left the zone alone while it was disabled: its members follow the graph from now on.
        if (analysisEnabled) await inner.refreshTag(id);
      }
      return t;
    },
    async deleteTag(id: number, s?: UserSession) {
      const t = await inner.getTag(id);
      await inner.deleteTag(id);
      await record(s, HISTORY_ACTION.deleteTag, t.name, id);
    },
    async createSelector(s: UserSession, tagId: number, input: SelectorInput) {
      const created = await inner.createSelector(s, tagId, input);
      await record(s, HISTORY_ACTION.createSelector, created.name, tagId);
      return created;
    },
    async updateSelector(s: UserSession, tagId: number, id: number, input: SelectorInput) {
      const updated = await inner.updateSelector(s, tagId, id, input);
      await record(s, HISTORY_ACTION.updateSelector, updated.name, tagId);
      return updated;
    },
    async deleteSelector(tagId: number, id: number, s?: UserSession) {
      const name = (await inner.listSelectors(tagId)).find((x) => x.id === id)?.name ?? String(id);
      await inner.deleteSelector(tagId, id);
      await record(s, HISTORY_ACTION.deleteSelector, name, tagId);
    },
    async certify(
      s: UserSession,
      input: { memberIds?: readonly number[] | null; note?: string | null; action?: CertificationAction | null },
    ) {
      const summary = await inner.certify(s, input);
      const action = summary.action === CERTIFICATION_ACTION.revoke ? HISTORY_ACTION.certifyRevoked : HISTORY_ACTION.certifyManual;
      if (summary.changed.length) await store.addCertifications(s.userId, action, summary.changed, input.note ?? null);
      return summary;
    },

    /** A page of history, newest first unless sort_by is created_at; `query` searches actor, email, action and target. */
    async history(input: {
      skip?: number | null;
      limit?: number | null;
      sortBy?: string | null;
      query?: string | null;
      filters?: readonly { column: TagHistoryColumn; value: string }[] | null;
    }) {
      const page = paging(CONTEXT, input, { limit: 100, max: 1000 });
      const sort = input.sortBy ?? '-created_at';
      if (sort !== 'created_at' && sort !== '-created_at') throw badRequest(CONTEXT, 'sort_by must be created_at or -created_at.');
      if (input.query != null && (!input.query.trim() || input.query.length > 200)) {
        throw badRequest(CONTEXT, 'query must be a string of 1 to 200 characters.');
      }
      const filters = (input.filters ?? []).map((f) => historyFilter(f.column, f.value));
      const { total, records } = await store.list({
        filters,
        query: input.query?.trim() ?? null,
        descending: sort.startsWith('-'),
        skip: page.skip,
        limit: page.limit,
      });
      return { totalCount: total, skip: page.skip, limit: page.limit, records };
    },

    tagExtras: (tagIds: readonly number[]) => store.extras(tagIds),
  };
  return wrapped;
}

export type RecordedAssetGroupsService = ReturnType<typeof withTagHistory>;
