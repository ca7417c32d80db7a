import { badRequest } from '../../errors.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Most items any list in a request may hold (OU and domain ids of an event, member ids, …). A list is stored and
 * read back whole, so its size bounds the cost of every later read (600,000 OU ids made each event list 5 s).
 */
export const MAX_LIST_ITEMS = 10_000;

/** Throws a 400 naming `param` when a list is longer than MAX_LIST_ITEMS. */
export function requireListSize(context: string, param: string, list: readonly unknown[], max = MAX_LIST_ITEMS): void {
  if (list.length > max) throw badRequest(context, `${param} holds ${list.length} items; at most ${max} are accepted.`);
}

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
