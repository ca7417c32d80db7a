import { badRequest } from '../errors.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const isUuid = (v: string): boolean => UUID.test(v);

/** Throws a 400 naming `param` unless `value` is a UUID; returns it lower-cased. */
export function requireUuid(context: string, param: string, value: string): string {
  if (!isUuid(value)) throw badRequest(context, `${param} is malformed: expected a UUID.`);
  return value.toLowerCase();
}

/** Throws a 400 naming `param` unless `value` is a non-empty string after trimming; returns it trimmed. */
export function requireText(context: string, param: string, value: string | null | undefined, max = 1000): string {
  const v = (value ?? '').trim();
  if (!v) throw badRequest(context, `${param} is required.`);
  if (v.length > max) throw badRequest(context, `${param} is longer than ${max} characters.`);
  return v;
}
