import { z } from 'zod';
import { configInputField } from '../../services/app/app-config.js';
import { query } from '../params.js';
import type { AppConfigInput } from '../../generated/operations.js';
import { data, route, type Result } from '../route.js';

type Parameter = Result<'ListAppConfig'>['appConfig'][number];

/** BloodHound's parameter object: snake_case, the value object as stored. */
const parameter = (p: Parameter) => ({
  key: p.key,
  name: p.name,
  description: p.description,
  value: p.value,
  writable: p.writable,
  updated_at: p.updatedAt ?? null,
  updated_by: p.updatedBy ?? null,
});

/** BloodHound's PUT body: the key and its value object (400 for a key we do not serve or cannot change). */
const updateBody = z.object({
  key: z.string({ error: 'must name a parameter.' }),
  value: z.record(z.string(), z.unknown(), { error: 'must be the parameter value object.' }),
});

/** Runtime parameters (BloodHound's appcfg), served by the app-config service. */
export const configRoutes = [
  route('GET', '/api/v2/config', 'config', 'ListAppConfig', {
    input: { query: z.object({ parameter: query.string() }) },
    variables: ({ query }) => ({ key: query.parameter ?? null }),
    reshape: ({ appConfig }) => data(appConfig.map(parameter)),
  }),
  route('PUT', '/api/v2/config', 'config', 'UpdateAppConfig', {
    body: 'json',
    input: { body: updateBody },
    // The value's shape is checked where GraphQL coerces the typed input (400 for a wrong or extra field).
    variables: ({ body }) => ({ input: { [configInputField(body.key)]: body.value } as AppConfigInput }),
    reshape: ({ updateAppConfig }) => data(parameter(updateAppConfig)),
  }),
];
