import { CERTIFICATION, CERTIFICATION_ACTION, SEED_TYPE, TAG_TYPE } from '../../services/zones/asset-groups.js';
import { enumValue } from '../../services/common/enums.js';
import { SSO_PROVIDER_TYPE } from '../../services/identity/sso.js';
import { nullInt32, nullString, nullTime } from '../shapes.js';
import type {
  CustomNodeKindFieldsFragment,
  GetAssetGroupMemberQuery,
  ListMemberCertificationsQuery,
  ListSsoProvidersQuery,
  MemberFieldsFragment,
  OidcProviderFieldsFragment,
  SamlProviderFieldsFragment,
  SelectorFieldsFragment,
  TagFieldsFragment,
} from '../../generated/operations.js';

/** BloodHound's clients read a seed's type as its number (1 object id, 2 Cypher); the kinds of seed it lacks keep their names. */
const BLOODHOUND_SEED_NUMBERS: Record<string, number> = { objectid: 1, cypher: 2 };
const restSeedType = (type: string) => BLOODHOUND_SEED_NUMBERS[type] ?? type;

/**
 * GraphQL results (camelCase) → the API document's SAML provider, SSO provider, custom kind and zone shapes. Enum
 * names become BloodHound's numbers (tag type, certification state and action) and stored seed types.
 */

export const samlProvider = (p: SamlProviderFieldsFragment) => ({
  id: p.id,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  deleted_at: nullTime(p.deletedAt),
  name: p.name,
  display_name: p.displayName,
  idp_issuer_uri: p.idpIssuerUri,
  idp_sso_uri: p.idpSsoUri,
  principal_attribute_mappings: p.principalAttributeMappings,
  sp_issuer_uri: p.spIssuerUri,
  sp_sso_uri: p.spSsoUri,
  sp_metadata_uri: p.spMetadataUri,
  sp_acs_uri: p.spAcsUri,
  sso_provider_id: nullInt32(p.ssoProviderId),
});

/** BloodHound's OIDC provider; has_client_secret is ours (BloodHound's clients are public). */
export const oidcProvider = (p: OidcProviderFieldsFragment) => ({
  id: p.id,
  client_id: p.clientId,
  issuer: p.issuer,
  sso_provider_id: p.ssoProviderId,
  has_client_secret: p.hasClientSecret,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

export const ssoProvider = (p: ListSsoProvidersQuery['ssoProviders'][number]) => ({
  id: p.id,
  name: p.name,
  slug: p.slug,
  type: enumValue(SSO_PROVIDER_TYPE, p.type),
  details: p.details ? samlProvider(p.details) : p.oidcDetails ? oidcProvider(p.oidcDetails) : null,
  config: {
    auto_provision: {
      enabled: p.autoProvision.enabled,
      default_role_id: p.autoProvision.defaultRoleId,
      role_provision: p.autoProvision.roleProvision,
    },
  },
  login_uri: p.loginUri,
  callback_uri: p.callbackUri,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

/** Endpoint 4's kind object: the API document's field names as they are (camelCase kindName). */
export const customNodeKind = (k: CustomNodeKindFieldsFragment) => ({ id: k.id, kindName: k.kindName, config: k.config });

export const tag = (t: TagFieldsFragment) => ({
  id: t.id,
  type: enumValue(TAG_TYPE, t.type),
  name: t.name,
  description: t.description,
  // BloodHound's null.Int32: the number, or null for a label.
  position: t.position ?? null,
  require_certify: t.requireCertify,
  kind_id: t.kindId,
  analysis_enabled: t.analysisEnabled ?? null,
  glyph: t.glyph ?? null,
  member_count: t.memberCount,
  created_at: t.createdAt,
  created_by: t.createdBy,
  updated_at: t.updatedAt,
  updated_by: t.updatedBy,
});

export const selector = (s: SelectorFieldsFragment) => ({
  id: s.id,
  asset_group_tag_id: s.tagId,
  name: s.name,
  description: s.description,
  seeds: s.seeds.map((x) => ({ selector_id: x.selectorId, type: restSeedType(enumValue(SEED_TYPE, x.type)), value: x.value })),
  auto_certify: s.autoCertify,
  is_default: s.isDefault,
  member_count: s.memberCount,
  created_at: s.createdAt,
  created_by: s.createdBy,
  updated_at: s.updatedAt,
  updated_by: s.updatedBy,
});

export const member = (m: MemberFieldsFragment) => ({
  id: m.id,
  object_id: m.objectId,
  name: m.name,
  primary_kind: m.primaryKind,
  kinds: m.kinds,
  asset_group_tag_id: m.tagId,
  certified: enumValue(CERTIFICATION, m.certified),
  certified_by: nullString(m.certifiedBy),
});

export const certification = (c: GetAssetGroupMemberQuery['assetGroupMember']['history'][number]) => ({
  id: c.id,
  member_id: c.nodeId,
  selector_id: nullInt32(c.selectorId),
  asset_group_tag_id: nullInt32(c.tagId),
  action: enumValue(CERTIFICATION_ACTION, c.action),
  previous: enumValue(CERTIFICATION, c.previous),
  note: c.note,
  actor: c.actor,
  created_at: c.createdAt,
});

/** BloodHound's AssetGroupMemberWithCertification: certified_by is a plain string ('' when nobody certified). */
export const memberCertification = (m: ListMemberCertificationsQuery['memberCertifications']['members'][number]) => ({
  id: m.id,
  object_id: m.objectId,
  environment_id: m.environmentId,
  primary_kind: m.primaryKind,
  name: m.name,
  asset_group_tag_id: m.tagId,
  created_at: m.createdAt,
  certified_by: m.certifiedBy ?? '',
  certified: enumValue(CERTIFICATION, m.certified),
});
