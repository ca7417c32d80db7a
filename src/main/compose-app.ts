import type { Express } from 'express';
import { buildSchema } from '../graphql/schema.js';
import { buildApp } from '../http/app.js';
import { OperationRunner } from '../rest/run.js';
import { composeServices, type ComposeDeps, type ComposedServices } from './compose.js';

// Apart from compose.ts so that a CLI command, which needs the services only, loads neither GraphQL nor express.

export interface Composed extends ComposedServices {
  /** The express app: REST /api/v2 and GraphQL /graphql over the services. */
  app: Express;
}

/** The whole service: the services above, the GraphQL schema and the express app over them. */
export async function compose(d: ComposeDeps): Promise<Composed> {
  const composed = await composeServices(d);
  const schema = buildSchema();
  const app = buildApp({ services: composed.services, config: d.config, log: d.log, schema, runner: new OperationRunner(schema) });
  return { ...composed, app };
}
