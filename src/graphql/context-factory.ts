import type { Session } from '../auth/session.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import type { GraphQLContext } from './context.js';

/** The single context factory used by /graphql and by REST routes, so both see identical rules. */
export function createContextFactory(services: Services, log: Logger) {
  return (req: { requestId: string; session?: Session | null; ip?: string }): GraphQLContext => ({
    requestId: req.requestId,
    session: req.session ?? null,
    services,
    edition: services.edition,
    log,
    clientIp: req.ip ?? 'unknown',
    loaders: services.createLoaders(),
  });
}

export type ContextFactory = ReturnType<typeof createContextFactory>;
