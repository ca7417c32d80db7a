import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from '../context.js';

/** Sign-ins audit themselves (src/services/identity/identity.ts): the row names the user signed in. */
const SELF_AUDITED = new Set(['login']);

/**
 * Mutations that cannot be one transaction with their audit row: streamed uploads and long jobs (holding a
 * transaction across them would hold the embedded database's one session), collector traffic that hands work to
 * the data pipeline, and attempts whose failure must persist (MFA codes and passwords count against the login
 * throttle even when refused). They get BloodHound's intent row first, then the outcome.
 */
const ATTEMPTS = new Set([
  'startUpload',
  'uploadFile',
  'endUpload',
  'cancelUpload',
  'requestAnalysis',
  'clearDatabase',
  'ingestCollection',
  'clientCheckin',
  'startJob',
  'endJob',
  'logClientError',
  'runScheduler',
  'enrollMfa',
  'activateMfa',
  'disenrollMfa',
  'samlCallback',
  'oidcCallback',
]);

/** BloodHound's action names where it has one; otherwise the mutation's name, capitalised. */
const ACTIONS: Record<string, string> = {
  createToken: 'CreateAuthToken',
  deleteToken: 'DeleteAuthToken',
  setUserSecret: 'UpdateUserAuthSecret',
  expireUserSecret: 'ExpireUserAuthSecret',
  enrollMfa: 'EnrollMFA',
  activateMfa: 'ActivateMFA',
  disenrollMfa: 'DisenrollMFA',
  acceptEula: 'AcceptEULA',
  toggleFeatureFlag: 'ToggleFeatureFlag',
  createOidcProvider: 'CreateOIDCProvider',
  updateOidcProvider: 'UpdateOIDCProvider',
  samlCallback: 'LoginAttempt',
  oidcCallback: 'LoginAttempt',
};
export const actionOf = (field: string) => ACTIONS[field] ?? field.charAt(0).toUpperCase() + field.slice(1);

/**
 * Every mutation is audited, whichever transport called it (REST runs the same operations): the caller, the
 * action, its arguments without secrets, the request id and address, and the outcome. Applied outermost, so a
 * mutation refused by its guard is recorded as a failure too.
 */
export function applyAudit(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType()?.name;
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      if (typeName !== mutation || SELF_AUDITED.has(fieldName)) return field;
      const resolve = field.resolve ?? defaultFieldResolver;
      const mode = ATTEMPTS.has(fieldName) ? 'attempt' : 'change';
      const action = actionOf(fieldName);
      return {
        ...field,
        resolve(source, args, ctx: GraphQLContext, info) {
          const origin = { session: ctx.session, requestId: ctx.requestId, clientIp: ctx.clientIp };
          const run = async () => resolve(source, args, ctx, info) as unknown;
          return ctx.services.audit[mode](origin, { action, fields: args as Record<string, unknown> }, run);
        },
      };
    },
  });
}
