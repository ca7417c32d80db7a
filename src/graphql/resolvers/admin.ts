import type { Resolvers } from '../../generated/graphql.js';
import { userOf } from './identity.js';

const json = (v: unknown) => (v ?? {}) as Record<string, unknown>;

export const adminResolvers: Resolvers = {
  Query: {
    samlProvider: (_, { id }, ctx) => ctx.services.sso.samlProvider(id),
    ssoProviders: (_, __, ctx) => ctx.services.sso.list(),
    samlMetadata: (_, { slug }, ctx) => ctx.services.sso.spMetadata(slug),
    samlLoginUrl: (_, { slug, relayState }, ctx) => ctx.services.sso.loginUrl(slug, relayState ?? null),
    customNodeKinds: (_, __, ctx) => ctx.services.customNodes.list(),
    customNodeKind: (_, { kindName }, ctx) => ctx.services.customNodes.get(kindName),
    assetGroupTags: (_, __, ctx) => ctx.services.assetGroups.listTags(),
    assetGroupTag: (_, { id }, ctx) => ctx.services.assetGroups.getTag(id),
    assetGroupMember: async (_, { tagId, memberId }, ctx) => {
      const { selectors, history, ...member } = await ctx.services.assetGroups.member(tagId, memberId);
      return { member, selectors, history };
    },
  },
  Mutation: {
    createSamlProvider: (_, { name, metadata, autoProvision, principalAttributeMappings }, ctx) =>
      ctx.services.sso.createSamlProvider({
        name,
        metadata,
        autoProvision: {
          enabled: autoProvision?.enabled ?? undefined,
          default_role_id: autoProvision?.defaultRoleId ?? undefined,
          role_provision: autoProvision?.roleProvision ?? undefined,
        },
        principalAttributeMappings: principalAttributeMappings ?? [],
      }),
    updateSamlProvider: (_, { ssoProviderId, name, metadata, autoProvision, principalAttributeMappings }, ctx) =>
      ctx.services.sso.updateSamlProvider(ssoProviderId, {
        name,
        metadata,
        autoProvision: {
          enabled: autoProvision?.enabled ?? undefined,
          default_role_id: autoProvision?.defaultRoleId ?? undefined,
          role_provision: autoProvision?.roleProvision ?? undefined,
        },
        principalAttributeMappings: principalAttributeMappings ?? [],
      }),
    deleteSsoProvider: async (_, { id }, ctx) => {
      await ctx.services.sso.delete(id);
      return true;
    },
    samlCallback: (_, { slug, samlResponse }, ctx) => ctx.services.sso.callback(slug, samlResponse),
    createCustomNodeKinds: (_, { kinds }, ctx) => ctx.services.customNodes.create(kinds),
    updateCustomNodeKind: (_, { kindName, config }, ctx) => ctx.services.customNodes.update(kindName, config),
    deleteCustomNodeKind: async (_, { kindName }, ctx) => {
      await ctx.services.customNodes.delete(kindName);
      return true;
    },
    createAssetGroupTag: (_, { input }, ctx) => ctx.services.assetGroups.createTag(userOf(ctx), json(input)),
    updateAssetGroupTag: (_, { id, input }, ctx) => ctx.services.assetGroups.updateTag(userOf(ctx), id, json(input)),
    deleteAssetGroupTag: async (_, { id }, ctx) => {
      await ctx.services.assetGroups.deleteTag(id);
      return true;
    },
    createAssetGroupSelector: (_, { tagId, input }, ctx) => ctx.services.assetGroups.createSelector(userOf(ctx), tagId, json(input)),
    updateAssetGroupSelector: (_, { tagId, id, input }, ctx) =>
      ctx.services.assetGroups.updateSelector(userOf(ctx), tagId, id, json(input)),
    deleteAssetGroupSelector: async (_, { tagId, id }, ctx) => {
      await ctx.services.assetGroups.deleteSelector(tagId, id);
      return true;
    },
    certifyMembers: (_, { memberIds, note, action }, ctx) => ctx.services.assetGroups.certify(userOf(ctx), { memberIds, note, action }),
  },
  SsoProvider: {
    autoProvision: (p) => ({
      enabled: p.config.auto_provision.enabled,
      defaultRoleId: p.config.auto_provision.default_role_id,
      roleProvision: p.config.auto_provision.role_provision,
    }),
  },
  AssetGroupTag: {
    selectors: (t, _, ctx) => ctx.services.assetGroups.listSelectors(t.id),
    members: (t, page, ctx) => ctx.services.assetGroups.members(t.id, page),
  },
};
