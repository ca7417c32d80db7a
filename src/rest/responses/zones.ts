import { z } from 'zod';
import { dataOf, nullString, pageOf, time } from './envelope.js';

/** Who made a tag or selector and when, who changed it last and when. */
const audited = { created_at: time, created_by: z.string(), updated_at: time, updated_by: z.string() };

/** An asset group tag (zone, label or owned) as BloodHound's AssetGroupTag marshals it, with member_count. */
export const tag = z.strictObject({
  id: z.number().int(),
  type: z.number().int().describe('1 zone, 2 label, 3 owned'),
  name: z.string(),
  description: z.string(),
  position: z.number().int().nullable().describe('a zone’s rank (Tier Zero is 1); null for a label'),
  require_certify: z.boolean().nullable(),
  kind_id: z.number().int().nullable().describe('the graph kind of the tag (Tag_<name>); null until a node has it'),
  analysis_enabled: z.boolean().nullable().describe('zones: whether analysis selects its members; null for a label'),
  glyph: z.string().nullable(),
  member_count: z.number().int(),
  ...audited,
});

export const selector = z.strictObject({
  id: z.number().int(),
  asset_group_tag_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  seeds: z.array(
    z.strictObject({
      selector_id: z.number().int(),
      type: z.union([z.number().int(), z.string()]).describe('1 object id, 2 Cypher; our kind and rule seeds by name'),
      value: z.string(),
    }),
  ),
  auto_certify: z.boolean(),
  is_default: z.boolean(),
  member_count: z.number().int(),
  ...audited,
});

export const member = z.strictObject({
  id: z.number().int(),
  object_id: z.string(),
  name: z.string(),
  primary_kind: z.string(),
  kinds: z.array(z.string()),
  asset_group_tag_id: z.number().int(),
  certified: z.number().int(),
  certified_by: nullString,
});

export const historyRecord = z.strictObject({
  id: z.number().int(),
  created_at: time,
  actor: z.string(),
  email: nullString,
  action: z.string(),
  target: z.string(),
  asset_group_tag_id: z.number().int(),
  environment_id: nullString,
  note: nullString,
});

export const ZONE_RESPONSES = {
  tags: dataOf(z.strictObject({ tags: z.array(tag) })),
  tag: dataOf(tag),
  tagWrapped: dataOf(z.strictObject({ tag })),
  selectors: pageOf(z.strictObject({ selectors: z.array(selector) })),
  selector: dataOf(selector),
  members: pageOf(z.strictObject({ members: z.array(member) })),
  history: pageOf(z.strictObject({ records: z.array(historyRecord) })),
};
