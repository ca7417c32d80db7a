import type {
  HistoryRecordFieldsFragment,
  LegacyAssetGroupMembersQuery,
  LegacyGroupFieldsFragment,
  LegacySelectorFieldsFragment,
} from '../../generated/operations.js';
import { nullString, nullTime } from '../shapes.js';

/** GraphQL results → BloodHound's tag history record and legacy asset-group shapes. */

export const historyRecord = (r: HistoryRecordFieldsFragment) => ({
  id: r.id,
  created_at: r.createdAt,
  actor: r.actor,
  email: nullString(r.email),
  action: r.action,
  target: r.target,
  asset_group_tag_id: r.tagId,
  environment_id: nullString(r.environmentId),
  note: nullString(r.note),
});

export const legacySelector = (s: LegacySelectorFieldsFragment) => ({
  id: s.id,
  asset_group_id: s.assetGroupId,
  name: s.name,
  selector: s.selector,
  system_selector: s.systemSelector,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
  deleted_at: nullTime(null),
});

export const legacyGroup = (g: LegacyGroupFieldsFragment) => ({
  id: g.id,
  name: g.name,
  tag: g.tag,
  system_group: g.systemGroup,
  selectors: g.selectors.map(legacySelector),
  member_count: g.memberCount,
  created_at: g.createdAt,
  updated_at: g.updatedAt,
  deleted_at: nullTime(null),
});

type LegacyMember = LegacyAssetGroupMembersQuery['legacyAssetGroupMembers']['members'][number];
export const legacyMember = (m: LegacyMember) => ({
  asset_group_id: m.assetGroupId,
  object_id: m.objectId,
  primary_kind: m.primaryKind,
  kinds: m.kinds,
  environment_id: m.environmentId,
  environment_kind: m.environmentKind,
  name: m.name,
  custom_member: m.customMember,
});

/** BloodHound's combo node graph: the group's members as nodes keyed by id (the legacy API draws no edges). */
export const comboGraph = (members: readonly LegacyMember[]) => ({
  nodes: Object.fromEntries(
    members.map((m) => [
      String(m.id),
      { label: m.name, kind: m.primaryKind, kinds: m.kinds, objectId: m.objectId, isTierZero: m.kinds.includes('Tag_Tier_Zero') },
    ]),
  ),
  edges: [],
});
