import type { Session } from '../auth/session.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import type { Loaders } from '../services/collectors/loaders.js';

/** What every resolver sees. Built by one factory for /graphql and for the REST routes alike. */
export interface GraphQLContext {
  requestId: string;
  session: Session | null;
  services: Services;
  edition: 'enterprise' | 'community';
  log: Logger;
  /** The caller's address (express `req.ip`), for login throttling. */
  clientIp: string;
  /** Batch loaders, fresh per request. */
  loaders: Loaders;
}
