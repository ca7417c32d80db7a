import type { UserSession } from '../../auth/session.js';
import type { Resolvers } from '../../generated/graphql.js';
import type { GraphQLContext } from '../context.js';

/** Root fields guarded by @requires always have a user session; this narrows the type for resolvers. */
export function userOf(ctx: GraphQLContext): UserSession {
  if (ctx.session?.kind !== 'user') throw new Error('guarded field reached without a user session');
  return ctx.session;
}

export const identityResolvers: Resolvers = {
  Query: {
    self: (_, __, ctx) => ctx.services.identity.self(ctx.session!),
    user: (_, { id }, ctx) => ctx.services.identity.getUser(userOf(ctx), id),
    users: (_, __, ctx) => ctx.services.identity.listUsers(),
    samlProviders: async (_, __, ctx) => (await ctx.services.sso.list()).flatMap((p) => (p.details ? [p.details] : [])),
    samlSignOnEndpoints: async (_, __, ctx) =>
      (await ctx.services.sso.list()).filter((p) => p.details).map((p) => ({ name: p.name, initiationUrl: p.loginUri })),
    mfaStatus: (_, { userId }, ctx) => ctx.services.mfa.status(userOf(ctx), userId),
    usersMinimal: (_, { filters, sortBy }, ctx) => ctx.services.accounts.listMinimal(filters ?? [], sortBy),
    permission: (_, { id }, ctx) => ctx.services.permissions.get(id),
    permissions: (_, __, ctx) => ctx.services.permissions.list(),
    roles: (_, __, ctx) => ctx.services.permissions.listRoles(),
    tokens: (_, { userId }, ctx) => ctx.services.tokens.list(userOf(ctx), userId),
  },
  Mutation: {
    login: (_, { input }, ctx) => ctx.services.identity.login(input, ctx.clientIp),
    logout: (_, __, ctx) => ctx.services.identity.logout(ctx.session!),
    createToken: (_, { name, userId }, ctx) => ctx.services.tokens.create(userOf(ctx), { name: name ?? null, userId }),
    deleteToken: async (_, { id }, ctx) => {
      await ctx.services.tokens.delete(userOf(ctx), id);
      return true;
    },
    createUser: (_, { input }, ctx) => ctx.services.identity.createUser(input),
    acceptEula: (_, __, ctx) => ctx.services.accounts.acceptEula(userOf(ctx)),
    deleteSamlProvider: async (_, { id }, ctx) => {
      const me = await ctx.services.accounts.get(userOf(ctx).userId);
      return ctx.services.sso.deleteSaml(id, me.ssoProviderId);
    },
    enrollMfa: (_, { userId, secret }, ctx) => ctx.services.mfa.enrol(userOf(ctx), userId, secret, ctx.clientIp),
    activateMfa: (_, { userId, otp }, ctx) => ctx.services.mfa.activate(userOf(ctx), userId, otp, ctx.clientIp),
    disenrollMfa: (_, { userId, secret }, ctx) => ctx.services.mfa.disenrol(userOf(ctx), userId, secret, ctx.clientIp),
  },
  User: {
    roles: async (user, _, ctx) => (await ctx.services.identity.rolesOf([user.id])).get(user.id) ?? [],
    // Passwords are hashed with scrypt (src/auth/password.ts); BloodHound names its own method (argon2) here.
    authSecret: (user) => (user.authSecret ? { ...user.authSecret, digestMethod: 'scrypt' } : null),
  },
  Role: {
    permissions: async (role, _, ctx) => (await ctx.services.permissions.permissionsOfRoles([role.id])).get(role.id) ?? [],
  },
  ApiToken: {
    key: (token) => ('key' in token ? ((token as { key?: string }).key ?? null) : null),
  },
};
