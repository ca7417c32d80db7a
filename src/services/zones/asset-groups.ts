import type { UserSession } from '../../auth/session.js';
import type { Queryable } from '../../db/pool.js';
import type {
  CertificationColumn,
  CertificationModel,
  Seed,
  SelectorModel,
  TagModel,
  TagsStore,
} from '../../db/stores/zones/tags-store.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import { primaryKind } from '../../graph/kinds.js';
import type { GraphStore } from '../../graph/store.js';
import { ruleSeedMatches } from '../../analysis/rule-seeds.js';
import type { TierZeroSeed } from '../../analysis/steps/tier-zero.js';
import { parseRule, RuleSyntaxError } from '../../analysis/tier-zero-rules.js';
import { certificationFilter } from './certification-filters.js';
import { paging } from '../common/paging.js';
import { checkCypherSeed, CYPHER_SEED_BOUNDS, cypherSeedNodes, type CypherSeedEngine } from './cypher-seeds.js';
import { previewSeeds, type PreviewMember } from './selector-preview.js';

export type { PreviewMember } from './selector-preview.js';

const CONTEXT = 'asset-group-tags';

/** Certification states of a member's selector row (BloodHound's newer numbering). */
export const CERTIFICATION = { pending: 0, revoked: 1, certified: 2, automatic: 3 } as const;
/** Tag types (BloodHound's numbers). */
export const TAG_TYPE = { zone: 1, label: 2 } as const;
/** Certification actions (BloodHound's numbers); a history row's action is the state it set. */
export const CERTIFICATION_ACTION = { revoke: CERTIFICATION.revoked, certify: CERTIFICATION.certified } as const;
/** Seed types as stored. BloodHound numbers an object id 1 and a Cypher query 2; kinds and rules are ours. */
export const SEED_TYPE = { objectid: 'objectid', kind: 'kind', rule: 'rule', cypher: 'cypher' } as const;

type ValueOf<T> = T[keyof T];
export type TagType = ValueOf<typeof TAG_TYPE>;
export type CertificationStatus = ValueOf<typeof CERTIFICATION>;
export type CertificationAction = ValueOf<typeof CERTIFICATION_ACTION>;
export type SeedType = ValueOf<typeof SEED_TYPE>;

/** The fields of a tag (create takes type and position too); absent fields keep their values on update. */
export interface TagInput {
  type?: TagType | null;
  name?: string | null;
  description?: string | null;
  position?: number | null;
  requireCertify?: boolean | null;
}

export interface SelectorInput {
  name?: string | null;
  description?: string | null;
  seeds?: readonly { type: SeedType; value: string }[] | null;
  autoCertify?: boolean | null;
}

export interface MemberView {
  id: number;
  objectId: string;
  name: string;
  primaryKind: string;
  kinds: string[];
  tagId: number;
  certified: number;
  certifiedBy: string | null;
}

/** A member in BloodHound's certification list: where (environment) and since when (first selected). */
export type MemberCertificationView = MemberView & { environmentId: string; createdAt: Date };

export interface CertificationSummary {
  action: CertificationAction;
  changed: number[];
  unchanged: number[];
}

export interface AssetGroupsDeps {
  store: TagsStore;
  graph: GraphStore;
  tx: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  bind: (q: Queryable) => TagsStore;
  /** Evaluates Cypher seeds (validation on create and update, members at refresh, previews). */
  cypher?: CypherSeedEngine;
  /**
   * The nodes each list of rule seeds selects (ruleSeedMatches in this thread by default; the server's pipeline
   * worker, so that loading the whole graph for them does not hold up requests).
   */
  matchRules?: (rules: TierZeroSeed[][]) => Promise<number[][]>;
}

/** A text field: absent → undefined (400 when required); present → 1..max characters (0..max if it may be empty). */
const text = (v: unknown, field: string, max: number, required: boolean, mayBeEmpty = false): string | undefined => {
  if (v === undefined || v === null) {
    if (required) throw badRequest(CONTEXT, `${field} is required.`);
    return undefined;
  }
  if (typeof v !== 'string' || (!mayBeEmpty && !v.trim()) || v.length > max) {
    throw badRequest(CONTEXT, `${field} must be a string of ${mayBeEmpty ? 0 : 1} to ${max} characters.`);
  }
  return v.trim();
};
function readSeeds(v: SelectorInput['seeds'], required: boolean): Seed[] | undefined {
  if (v === undefined || v === null) {
    if (required) throw badRequest(CONTEXT, 'seeds is required: [{type: "objectid" | "kind", value}].');
    return undefined;
  }
  if (v.length === 0 || v.length > 1000) throw badRequest(CONTEXT, 'seeds must be a list of 1 to 1000 seeds.');
  return v.map(({ type: t, value }, i) => {
    const max = t === 'cypher' ? CYPHER_SEED_BOUNDS.maxQuery : t === 'rule' ? 500 : 200;
    if (!value.trim() || value.length > max) throw badRequest(CONTEXT, `seeds[${i}].value must be a non-empty string.`);
    if (t === 'rule') {
      try {
        parseRule(value);
      } catch (err) {
        if (err instanceof RuleSyntaxError) throw badRequest(CONTEXT, `seeds[${i}].value: ${err.message}`);
        throw err;
      }
    }
    return { type: t, value: t === 'objectid' ? value.trim().toUpperCase() : value.trim() };
  });
}

/** Parses every Cypher seed before a selector is stored: a 400 naming the seed, the line and the column. */
async function checkSeeds(engine: CypherSeedEngine | undefined, seeds: readonly Seed[] | undefined): Promise<void> {
  for (const [i, seed] of (seeds ?? []).entries()) if (seed.type === 'cypher') await checkCypherSeed(engine, i, seed.value);
}

/** Zones and labels (asset group tags), their selectors and members, and member certification (endpoint 5). */
export function createAssetGroupsService(deps: AssetGroupsDeps) {
  const { store, graph } = deps;

  async function tag(id: number): Promise<TagModel> {
    const t = await store.getTag(id);
    if (!t) throw notFound(CONTEXT, 'The requested asset group tag could not be found.');
    return t;
  }
  async function selector(tagId: number, id: number): Promise<SelectorModel> {
    const s = await store.getSelector(id);
    if (!s || s.tagId !== tagId) throw notFound(CONTEXT, 'The requested selector could not be found.');
    return s;
  }
  const nameTaken = (name: string) => (err: unknown) => {
    if (err instanceof AppError && err.code === 'CONFLICT') throw conflict(CONTEXT, `A tag named "${name}" already exists.`);
    throw err;
  };

  /**
   * Re-evaluates one selector against the graph. Graph reads happen first: the sync is one statement. Its rule
   * seeds' nodes come matched (`byRule`, see refreshEach).
   */
  async function refresh(s: SelectorModel, byRule: readonly number[]): Promise<void> {
    const objectids = s.seeds.filter((x) => x.type === 'objectid').map((x) => x.value);
    const kinds = s.seeds.filter((x) => x.type === 'kind').map((x) => x.value);
    const queries = s.seeds.filter((x) => x.type === 'cypher').map((x) => x.value);
    const [byId, byKind] = await Promise.all([graph.nodesByObjectIds(objectids), graph.nodeIdsWithKinds(kinds)]);
    const byCypher = await cypherSeedNodes(deps.cypher, queries, { quiet: true });
    const ids = [...new Set([...byId.map((n) => n.id), ...byKind, ...byRule, ...byCypher])];
    await store.syncSelector(s.id, ids, s.autoCertify);
  }

  const matchRules = deps.matchRules ?? ((rules: TierZeroSeed[][]) => ruleSeedMatches(graph, rules));

  /** Re-evaluates the selectors in turn; their rule seeds all at once first (one analysis view for all of them). */
  async function refreshEach(selectors: readonly SelectorModel[]): Promise<void> {
    const rules = selectors.map((s) => s.seeds.filter((x) => x.type === 'rule').map(({ type, value }) => ({ type, value })));
    const byRule = await matchRules(rules);
    for (const [i, s] of selectors.entries()) await refresh(s, byRule[i] ?? []);
  }

  async function withNodes(
    rows: { nodeId: number; tagId: number; certified: number; certifiedBy: string | null }[],
  ): Promise<MemberView[]> {
    const nodes = new Map((await graph.nodeSummaries(rows.map((r) => r.nodeId))).map((n) => [n.id, n]));
    return rows.map((r) => {
      const n = nodes.get(r.nodeId);
      return {
        id: r.nodeId,
        objectId: n?.objectid ?? '',
        name: n?.name ?? n?.objectid ?? '',
        primaryKind: n ? primaryKind(n.kinds) : '',
        kinds: n?.kinds ?? [],
        tagId: r.tagId,
        certified: r.certified,
        certifiedBy: r.certifiedBy,
      };
    });
  }

  return {
    listTags: () => store.listTags(),
    getTag: tag,

    async createTag(s: UserSession, input: TagInput): Promise<TagModel> {
      const type = input.type;
      if (!type) throw badRequest(CONTEXT, 'type must be "zone" (1) or "label" (2).');
      const name = text(input.name, 'name', 250, true)!;
      const position = input.position;
      if (position !== undefined && position !== null && (type !== TAG_TYPE.zone || position < 2)) {
        throw badRequest(CONTEXT, 'position is an integer of 2 or more, for zones only (Tier Zero is 1).');
      }
      const id = await store
        .createTag({
          type,
          name,
          description: text(input.description, 'description', 2000, false, true) ?? '',
          position: position ?? null,
          requireCertify: input.requireCertify ?? false,
          actor: s.principalName,
        })
        .catch(nameTaken(name));
      return tag(id);
    },

    async updateTag(s: UserSession, id: number, input: Omit<TagInput, 'type' | 'position'>): Promise<TagModel> {
      await tag(id);
      const name = text(input.name, 'name', 250, false);
      await store
        .updateTag(id, {
          name,
          description: text(input.description, 'description', 2000, false, true),
          requireCertify: input.requireCertify ?? undefined,
          actor: s.principalName,
        })
        .catch(nameTaken(name ?? ''));
      return tag(id);
    },

    async deleteTag(id: number): Promise<void> {
      const t = await tag(id);
      if (t.type === 1 && t.position === 1) throw conflict(CONTEXT, 'Tier Zero cannot be deleted.');
      await store.deleteTag(id);
    },

    async listSelectors(tagId: number): Promise<SelectorModel[]> {
      await tag(tagId);
      return store.listSelectors(tagId);
    },

    /** A page of the tag's selectors (a tag has few: the page is cut from the whole list). */
    async selectorPage(tagId: number, input: { skip?: number | null; limit?: number | null }) {
      await tag(tagId);
      const page = paging(CONTEXT, input, { limit: 50, max: 1000 });
      const all = await store.listSelectors(tagId);
      return { totalCount: all.length, skip: page.skip, limit: page.limit, selectors: all.slice(page.skip, page.skip + page.limit) };
    },

    async createSelector(s: UserSession, tagId: number, input: SelectorInput): Promise<SelectorModel> {
      await tag(tagId);
      const name = text(input.name, 'name', 250, true)!;
      const seeds = readSeeds(input.seeds, true)!;
      await checkSeeds(deps.cypher, seeds);
      const id = await store.createSelector({
        tagId,
        name,
        description: text(input.description, 'description', 2000, false, true) ?? '',
        seeds,
        autoCertify: input.autoCertify ?? false,
        actor: s.principalName,
      });
      const created = (await store.getSelector(id))!;
      await refreshEach([created]);
      return (await store.getSelector(id))!;
    },

    async updateSelector(s: UserSession, tagId: number, id: number, input: SelectorInput): Promise<SelectorModel> {
      const current = await selector(tagId, id);
      const seeds = readSeeds(input.seeds, false);
      if (current.isDefault && seeds) throw conflict(CONTEXT, 'The seeds of a default selector cannot be changed.');
      await checkSeeds(deps.cypher, seeds);
      await store.updateSelector(id, {
        name: text(input.name, 'name', 250, false),
        description: text(input.description, 'description', 2000, false, true),
        seeds,
        autoCertify: input.autoCertify ?? undefined,
        actor: s.principalName,
      });
      await refreshEach([(await store.getSelector(id))!]);
      return (await store.getSelector(id))!;
    },

    async deleteSelector(tagId: number, id: number): Promise<void> {
      const s = await selector(tagId, id);
      if (s.isDefault) throw conflict(CONTEXT, 'A default selector cannot be deleted.');
      await store.deleteSelector(id);
    },

    /**
     * BloodHound's preview of seeds (POST …/preview-selectors): the nodes they would select now, at most `limit`
     * (200 by default), without storing anything. Seeds are checked as on create (Cypher parsed first).
     */
    async preview(input: { seeds?: SelectorInput['seeds']; limit?: number | null }): Promise<PreviewMember[]> {
      const { limit } = paging(CONTEXT, { limit: input.limit }, { limit: 200, max: 10_000 });
      const seeds = readSeeds(input.seeds, true)!;
      await checkSeeds(deps.cypher, seeds);
      return previewSeeds({ graph, cypher: deps.cypher }, seeds, limit);
    },

    /**
     * The Tier Zero zone's seeds for analysis, with each Cypher seed replaced by the object ids its query returns
     * on the graph as it is when analysis starts (analysis matches rules, object ids and kinds itself).
     */
    async tierZeroSeeds(): Promise<{ type: string; value: string }[]> {
      const seeds = await store.tierZeroSeeds();
      const queries = seeds.filter((x) => x.type === 'cypher').map((x) => x.value);
      if (!queries.length) return seeds;
      const ids = await cypherSeedNodes(deps.cypher, queries, { quiet: true });
      const selected = await graph.nodeSummaries(ids);
      return [...seeds.filter((x) => x.type !== 'cypher'), ...selected.map((n) => ({ type: 'objectid', value: n.objectid }))];
    },

    /**
     * Re-evaluates the selectors analysis covers (after analysis: Tier Zero follows what analysis tagged). A zone
     * whose analysis is not enabled keeps the members its selectors last selected, as BloodHound leaves it unselected.
     */
    refreshAll: async () => refreshEach(await store.analysedSelectors()),

    /** Re-evaluates one tag's selectors now (a zone whose analysis was just enabled). */
    refreshTag: async (tagId: number) => refreshEach(await store.listSelectors(tagId)),

    async members(tagId: number, input: { skip?: number | null; limit?: number | null; selectorId?: number | null }) {
      await tag(tagId);
      if (input.selectorId != null) await selector(tagId, input.selectorId);
      const page = paging(CONTEXT, input, { limit: 100, max: 1000 });
      const { total, members } = await store.members(tagId, input.selectorId ?? null, page.skip, page.limit);
      return { totalCount: total, skip: page.skip, limit: page.limit, members: await withNodes(members) };
    },

    async member(tagId: number, nodeId: number): Promise<MemberView & { selectors: SelectorModel[]; history: CertificationModel[] }> {
      await tag(tagId);
      const selectors = await store.selectorsOfNode(nodeId, tagId);
      if (!selectors.length) throw notFound(CONTEXT, `Node ${nodeId} is not a member of tag ${tagId}.`);
      const [view] = await withNodes([(await store.member(tagId, nodeId))!]);
      return { ...view!, selectors, history: await store.history(nodeId) };
    },

    /** Every certification change, newest first, optionally of one tag (BloodHound's GET …/certifications). */
    async certifications(input: { skip?: number | null; limit?: number | null; tagId?: number | null }) {
      if (input.tagId != null) await tag(input.tagId);
      const page = paging(CONTEXT, input, { limit: 100, max: 1000 });
      const { total, records } = await store.certifications(page.skip, page.limit, input.tagId ?? null);
      return { totalCount: total, skip: page.skip, limit: page.limit, records };
    },

    /**
     * Zone members with their current certification (BloodHound's GET …/certifications): one entry per node, of
     * its highest-priority zone that requires certification; filters are `predicate:value` per column (AND).
     */
    async memberCertifications(input: {
      skip?: number | null;
      limit?: number | null;
      filters?: readonly { column: CertificationColumn; value: string }[] | null;
    }) {
      // BloodHound's AssetGroupTagDefaultLimit
      const page = paging(CONTEXT, input, { limit: 50, max: 1000 });
      const filters = (input.filters ?? []).map((f) => certificationFilter(f.column, f.value));
      const { total, members } = await store.memberCertifications(filters, page.skip, page.limit);
      const views = await withNodes(members);
      return {
        totalCount: total,
        skip: page.skip,
        limit: page.limit,
        members: views.map((v, i): MemberCertificationView => ({
          ...v,
          environmentId: members[i]!.environmentId,
          createdAt: members[i]!.createdAt,
        })),
      };
    },

    /**
     * Endpoint 5: certifies (action 2, the default) or revokes (1) zone members, all or
     * nothing. Per node only its highest-priority zone selector row takes the action (lower rows return to
     * pending); automatic certifications are left alone. Every change is kept with who, when and the note.
     */
    async certify(
      s: UserSession,
      input: { memberIds?: readonly number[] | null; note?: string | null; action?: CertificationAction | null },
    ): Promise<CertificationSummary> {
      const ids = input.memberIds;
      if (!ids?.length) throw badRequest(CONTEXT, 'member_ids must be a non-empty list of member ids.');
      if (ids.length > 10_000) throw badRequest(CONTEXT, `member_ids holds ${ids.length} items; at most 10000 are accepted.`);
      if (!ids.every((i) => i > 0)) throw badRequest(CONTEXT, 'member_ids must hold positive integers only.');
      if (input.note != null && input.note.length > 4000) throw badRequest(CONTEXT, 'note must be a string of at most 4000 characters.');
      const note = input.note ?? '';
      const target = input.action ?? CERTIFICATION_ACTION.certify;
      const unique = [...new Set(ids)];
      return deps.tx(async (q) => {
        const tx = deps.bind(q);
        const rows = await tx.selectorRowsOfNodes(unique);
        const seen = new Set(rows.map((r) => r.nodeId));
        const strangers = unique.filter((id) => !seen.has(id));
        if (strangers.length) throw badRequest(CONTEXT, `Not members of any zone: ${strangers.join(', ')}.`);
        const changed: number[] = [];
        const unchanged: number[] = [];
        for (const nodeId of unique) {
          const [first, ...lower] = rows.filter((r) => r.nodeId === nodeId);
          if (first!.certified === target || first!.certified === CERTIFICATION.automatic) {
            unchanged.push(nodeId);
            continue;
          }
          await tx.setCertified(first!.selectorId, nodeId, target, s.principalName);
          await tx.addHistory({
            nodeId,
            selectorId: first!.selectorId,
            tagId: first!.tagId,
            action: target,
            previous: first!.certified,
            note,
            actor: s.principalName,
          });
          for (const r of lower) {
            if (r.certified !== CERTIFICATION.pending && r.certified !== CERTIFICATION.automatic) {
              await tx.setCertified(r.selectorId, nodeId, CERTIFICATION.pending, null);
            }
          }
          changed.push(nodeId);
        }
        return { action: target, changed, unchanged };
      });
    },
  };
}

export type AssetGroupsService = ReturnType<typeof createAssetGroupsService>;
