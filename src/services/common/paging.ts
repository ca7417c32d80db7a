import { badRequest } from '../../errors.js';

export interface Paging {
  skip: number;
  limit: number;
}

/** Validates skip/limit: integers ≥ 0, limit at most `max`; 400 naming the parameter otherwise. */
export function paging(
  context: string,
  input: { skip?: number | null; limit?: number | null },
  defaults: { limit: number; max: number },
): Paging {
  const skip = input.skip ?? 0;
  const limit = input.limit ?? defaults.limit;
  if (!Number.isInteger(skip) || skip < 0) throw badRequest(context, 'skip must be an integer >= 0.');
  if (!Number.isInteger(limit) || limit < 0) throw badRequest(context, 'limit must be an integer >= 0.');
  if (limit > defaults.max) throw badRequest(context, `limit must be at most ${defaults.max}.`);
  return { skip, limit };
}

export interface SortKey<C extends string> {
  column: C;
  descending: boolean;
}

/** GraphQL's sort input ({column, descending}, the column an enum already checked): descending false when left out. */
export const sortInput = <C extends string>(keys: readonly { column: C; descending?: boolean | null }[] | null | undefined): SortKey<C>[] =>
  (keys ?? []).map((k) => ({ column: k.column, descending: k.descending ?? false }));

/** Parses repeatable sort_by values (`name`, `-name`) against the sortable columns; 400 naming a bad one. */
export function sortKeys<C extends string>(
  context: string,
  values: readonly string[] | null | undefined,
  allowed: readonly C[],
): SortKey<C>[] {
  return (values ?? []).map((raw) => {
    const descending = raw.startsWith('-');
    const column = (descending ? raw.slice(1) : raw) as C;
    if (!allowed.includes(column))
      throw badRequest(context, `sort_by column "${column}" is not sortable; use one of: ${allowed.join(', ')}.`);
    return { column, descending };
  });
}
