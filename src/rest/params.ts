import { z } from 'zod';
import { badRequest, type AppError } from '../errors.js';

/**
 * The zod pieces REST routes declare their path, query and body with. They only parse what HTTP delivers as
 * text (query strings, path segments) or as loose JSON into the types the GraphQL operation takes; rules about
 * the values themselves live in the services. Messages name no field: `parse` prefixes the parameter's name.
 */

/** Where a value came from, for the error message ("query parameter skip is malformed …"). */
export type Where = 'path' | 'query' | 'body';

const INT = /^-?\d{1,10}$/;
const INT32 = 2147483647;
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Messages for zod's own issues, written to follow the parameter's name. */
const describe: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return 'is required.';
    if (issue.expected === 'boolean') return 'must be true or false.';
    if (issue.expected === 'object') return 'must be an object.';
    if (issue.expected === 'array') return 'must be an array.';
    if (issue.expected === 'string' && Array.isArray(issue.input)) return 'must be given once.';
    return `must be a ${issue.expected}.`;
  }
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
  if (issue.code === 'too_small') return `must be >= ${String(issue.minimum)}.`;
  if (issue.code === 'too_big') return 'is out of range.';
  return undefined;
};

/** Parses one part of a request; the first problem becomes a 400 in the route's context, naming the parameter. */
export function parse<S extends z.ZodType>(context: string, where: Where, schema: S, value: unknown): z.output<S> {
  // Without options first, and again with the messages only when that fails: zod copies an options object into
  // each parse's context (`{ ...options, async }`), and V8 gives that copy storage that outlives the young
  // generation (~55–65 bytes promoted per parse in a loop; a third of what a look-up left for the next full collection).
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const described = schema.safeParse(value, { error: describe });
  throw problem(context, where, (described.error ?? result.error).issues[0]!);
}

function problem(context: string, where: Where, issue: z.core.$ZodIssue): AppError {
  const name = issue.path.map(String).join('.');
  if (!name) return badRequest(context, where === 'body' ? `The JSON body ${issue.message}` : issue.message);
  const label = where === 'query' ? `query parameter ${name}` : name;
  return badRequest(context, `${label} ${issue.message}`);
}

/** Empty query values count as absent (`?skip=`), as BloodHound's Go handlers read them. */
const blankIsAbsent = (v: unknown) => (v === '' ? undefined : v);

/** One integer written as text (a path segment or a query value), int32 range, at least `min`. */
export const intText = (min: number) =>
  z.string().regex(INT, 'is malformed: expected an integer.').transform(Number).pipe(z.number().min(min).max(INT32, 'is out of range.'));

/** A boolean spelled as Go's strconv.ParseBool accepts; undefined when absent. */
const optBool = () =>
  z.preprocess(
    blankIsAbsent,
    z
      .string()
      .refine((v) => TRUE.has(v) || FALSE.has(v), 'is malformed: expected true or false.')
      .optional()
      .transform((v) => (v === undefined ? undefined : TRUE.has(v))),
  );

/** Query parameters: a repeated parameter where one value is expected is a 400. */
export const query = {
  string: () => z.string().optional(),
  /** An optional integer; absent (or empty) is null, as the GraphQL operations take it. */
  int: (min = 0) => z.preprocess(blankIsAbsent, intText(min).optional()).transform((v) => v ?? null),
  /** A boolean spelled as Go's strconv.ParseBool accepts (BloodHound's clients send these). */
  bool: (def: boolean) => optBool().transform((v) => v ?? def),
  /** The same without a default: undefined when absent. */
  optBool,
  /** All values of a repeatable parameter. */
  many: () =>
    z
      .union([z.string(), z.array(z.string())])
      .optional()
      .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
};

/** Body fields: absent and null both mean "not given" (null for GraphQL). */
export const field = {
  string: () =>
    z
      .string()
      .nullish()
      .transform((v) => v ?? null),
  bool: () =>
    z
      .boolean()
      .nullish()
      .transform((v) => v ?? null),
  strings: () =>
    z
      .array(z.unknown(), { error: 'must be an array of strings.' })
      .refine((a) => a.every((x) => typeof x === 'string'), 'must be an array of strings.')
      .nullish()
      .transform((v) => (v as string[] | null | undefined) ?? null),
};
