import type { AutoProvisionInput, Resolvers } from '../../generated/graphql.js';
import { userOf } from './identity.js';

/** The SAML provider arguments of create and update, in the service's (BloodHound's) spelling. */
function samlInput(a: {
  name?: string | null;
  metadata?: string | null;
  autoProvision?: AutoProvisionInput | null;
  principalAttributeMappings?: readonly string[] | null;
}) {
  const p = a.autoProvision;
  return {
    name: a.name,
    metadata: a.metadata,
    autoProvision: {
      enabled: p?.enabled ?? undefined,
      default_role_id: p?.defaultRoleId ?? undefined,
      role_provision: p?.roleProvision ?? undefined,
    },
    principalAttributeMappings: [...(a.principalAttributeMappings ?? [])],
  };
}

/** The OIDC provider arguments of create and update, in the service's (BloodHound's) spelling. */
function oidcInput(a: {
  name?: string | null;
  issuer?: string | null;
  clientId?: string | null;
  clientSecret?: string | null;
  autoProvision?: AutoProvisionInput | null;
}) {
  const p = a.autoProvision;
  return {
    name: a.name,
    issuer: a.issuer,
    clientId: a.clientId,
    clientSecret: a.clientSecret,
    autoProvision: {
      enabled: p?.enabled ?? undefined,
      default_role_id: p?.defaultRoleId ?? undefined,
      role_provision: p?.roleProvision ?? undefined,
    },
  };
}

export const adminResolvers: Resolvers = {
  Query: {
    samlProvider: (_, { id }, ctx) => ctx.services.sso.samlProvider(id),
    ssoProviders: (_, __, ctx) => ctx.services.sso.list(),
    samlMetadata: (_, { slug }, ctx) => ctx.services.sso.spMetadata(slug),
    samlLoginUrl: (_, { slug, relayState }, ctx) => ctx.services.sso.loginUrl(slug, relayState ?? null),
    ssoLoginUrl: async (_, { slug, relayState }, ctx) =>
      (await ctx.services.sso.typeOf(slug)) === 'oidc'
        ? ctx.services.oidc.loginUrl(slug)
        : ctx.services.sso.loginUrl(slug, relayState ?? null),
    samlSigningCertificate: (_, { ssoProviderId }, ctx) => ctx.services.sso.signingCertificate(ssoProviderId),
    customNodeKinds: (_, __, ctx) => ctx.services.customNodes.list(),
    customNodeKind: (_, { kindName }, ctx) => ctx.services.customNodes.get(kindName),
    assetGroupTags: (_, __, ctx) => ctx.services.assetGroups.listTags(),
    assetGroupTag: (_, { id }, ctx) => ctx.services.assetGroups.getTag(id),
    appConfig: (_, { key }, ctx) => ctx.services.appConfig.list(key),
    assetGroupMember: async (_, { tagId, memberId }, ctx) => {
      const { selectors, history, ...member } = await ctx.services.assetGroups.member(tagId, memberId);
      return { member, selectors, history };
    },
  },
  Mutation: {
    createSamlProvider: (_, args, ctx) => ctx.services.sso.createSamlProvider(samlInput(args)),
    updateSamlProvider: (_, { ssoProviderId, ...args }, ctx) => ctx.services.sso.updateSamlProvider(ssoProviderId, samlInput(args)),
    deleteSsoProvider: async (_, { id }, ctx) => {
      await ctx.services.sso.delete(id);
      return true;
    },
    samlCallback: (_, { slug, samlResponse }, ctx) => ctx.services.sso.callback(slug, samlResponse),
    createOidcProvider: (_, args, ctx) => ctx.services.oidc.create(oidcInput(args)),
    updateOidcProvider: (_, { ssoProviderId, ...args }, ctx) => ctx.services.oidc.update(ssoProviderId, oidcInput(args)),
    oidcCallback: (_, { slug, ...input }, ctx) => ctx.services.oidc.callback(slug, input),
    createCustomNodeKinds: (_, { kinds }, ctx) => ctx.services.customNodes.create(kinds),
    updateCustomNodeKind: (_, { kindName, config }, ctx) => ctx.services.customNodes.update(kindName, config),
    deleteCustomNodeKind: async (_, { kindName }, ctx) => {
      await ctx.services.customNodes.delete(kindName);
      return true;
    },
    createAssetGroupTag: (_, { input }, ctx) => ctx.services.assetGroups.createTag(userOf(ctx), input),
    updateAssetGroupTag: (_, { id, input }, ctx) => ctx.services.assetGroups.updateTag(userOf(ctx), id, input),
    deleteAssetGroupTag: async (_, { id }, ctx) => {
      await ctx.services.assetGroups.deleteTag(id, userOf(ctx));
      return true;
    },
    createAssetGroupSelector: (_, { tagId, input }, ctx) => ctx.services.assetGroups.createSelector(userOf(ctx), tagId, input),
    updateAssetGroupSelector: (_, { tagId, id, input }, ctx) => ctx.services.assetGroups.updateSelector(userOf(ctx), tagId, id, input),
    deleteAssetGroupSelector: async (_, { tagId, id }, ctx) => {
      await ctx.services.assetGroups.deleteSelector(tagId, id, userOf(ctx));
      return true;
    },
    updateAppConfig: (_, { input }, ctx) => ctx.services.appConfig.update(userOf(ctx), input),
    certifyMembers: (_, { memberIds, note, action }, ctx) => ctx.services.assetGroups.certify(userOf(ctx), { memberIds, note, action }),
  },
  SsoProvider: {
    autoProvision: (p) => ({
      enabled: p.config.auto_provision.enabled,
      defaultRoleId: p.config.auto_provision.default_role_id,
      roleProvision: p.config.auto_provision.role_provision,
    }),
  },
  AppConfigValue: {
    __resolveType: (v) => ('hours' in v ? 'HoursValue' : 'ToggleValue'),
  },
  AssetGroupTag: {
    selectors: (t, _, ctx) => ctx.services.assetGroups.listSelectors(t.id),
    members: (t, page, ctx) => ctx.services.assetGroups.members(t.id, page),
  },
};
