import { badRequest } from '../errors.js';

/** Query values as express parses them: repeated keys become arrays. */
export type QueryValue = string | string[] | undefined;

/** The single value of a query parameter; a repeated parameter that must be single is a 400 naming it. */
export function single(context: string, name: string, v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw badRequest(context, `query parameter ${name} must be given once.`);
  if (typeof v !== 'string') throw badRequest(context, `query parameter ${name} is malformed.`);
  return v;
}

/** All values of a repeatable query parameter. */
export function many(context: string, name: string, v: unknown): string[] {
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((x) => typeof x === 'string')) throw badRequest(context, `query parameter ${name} is malformed.`);
  return list as string[];
}

const INT = /^-?\d{1,10}$/;

/** An integer parameter (path or query); `min` and int32 range enforced; 400 naming it otherwise. */
export function int(context: string, name: string, v: string | undefined, opts: { min?: number; def?: number } = {}): number | undefined {
  if (v === undefined || v === '') return opts.def;
  if (!INT.test(v)) throw badRequest(context, `${name} is malformed: expected an integer.`);
  const n = Number(v);
  if (n > 2147483647 || n < -2147483648) throw badRequest(context, `${name} is out of range.`);
  if (opts.min !== undefined && n < opts.min) throw badRequest(context, `${name} must be >= ${opts.min}.`);
  return n;
}

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** A boolean parameter, spelled as Go's strconv.ParseBool accepts (BloodHound's clients send these). */
export function bool(context: string, name: string, v: string | undefined, def: boolean): boolean {
  if (v === undefined || v === '') return def;
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw badRequest(context, `${name} is malformed: expected true or false.`);
}

/** A JSON request body that must be an object (or absent, when `optional`). */
export function bodyObject(context: string, body: unknown, optional = false): Record<string, unknown> {
  if (body === undefined || body === null) {
    if (optional) return {};
    throw badRequest(context, 'A JSON object body is required.');
  }
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(context, 'The JSON body must be an object.');
  return body as Record<string, unknown>;
}
