import { z } from 'zod';

/**
 * Response schemas of the REST routes, in BloodHound's shapes: what the OpenAPI document states a route answers,
 * and what test/http/openapi-responses.test.ts holds the live answers to (strict objects: a field missing from the
 * answer or not in the schema fails). Nullable wrappers as BloodHound's Go types marshal them.
 */
export const time = z.string().describe('RFC 3339 time');
export const nullString = z.strictObject({ string: z.string(), valid: z.boolean() });

/** `{data: …}`, BloodHound's usual answer. */
export const dataOf = <T extends z.ZodType>(inner: T) => z.strictObject({ data: inner });

/** BloodHound's pagination envelope: count, skip and limit beside data. */
export const pageOf = <T extends z.ZodType>(inner: T) =>
  z.strictObject({ count: z.number().int(), skip: z.number().int(), limit: z.number().int(), data: inner });
