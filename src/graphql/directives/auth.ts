import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { forbidden, notFound, unauthorized } from '../../errors.js';
import { MSG } from '../../messages.js';
import type { GraphQLContext } from '../context.js';

/**
 * The one authorisation mechanism: every root field (Query, Mutation) is wrapped with a guard built from its
 * directives. REST routes run the same operations, so they inherit exactly these rules.
 *   @enterprise   NOT_FOUND in the community edition (checked first: the field does not exist there)
 *   @public       no caller needed; otherwise UNAUTHENTICATED without one
 *   @clientOnly   NOT_FOUND for users
 *   @requires     FORBIDDEN unless the user holds every listed permission
 */
export function applyAuthDirectives(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name].filter(Boolean));
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, _fieldName, typeName) => {
      if (!roots.has(typeName)) return field;
      const isPublic = !!getDirective(schema, field, 'public')?.length;
      const enterprise = !!getDirective(schema, field, 'enterprise')?.length;
      const clientOnly = !!getDirective(schema, field, 'clientOnly')?.length;
      const requires = (getDirective(schema, field, 'requires')?.[0]?.permissions as string[] | undefined) ?? [];
      const area = typeName === 'Mutation' ? 'mutation' : 'query';
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        resolve(source, args, ctx: GraphQLContext, info) {
          if (enterprise && ctx.edition !== 'enterprise') throw notFound(area, MSG.notEnterprise);
          if (!isPublic) {
            const session = ctx.session;
            if (!session) throw unauthorized(area, MSG.notAuthenticated);
            if (clientOnly && session.kind !== 'client') throw notFound(area, MSG.clientOnly);
            if (requires.length) {
              if (session.kind !== 'user') throw forbidden(area, MSG.forbidden);
              const missing = requires.filter((p) => !session.permissions.has(p));
              if (missing.length) throw forbidden(area, `${MSG.forbidden} Missing permission: ${missing.join(', ')}.`);
            }
          }
          return resolve(source, args, ctx, info);
        },
      };
    },
  });
}
