/**
 * GraphQL names closed sets (job statuses, tag types, certification states …) as enums; the services and REST
 * keep BloodHound's numbers. Each set is one table, `{camelName: value}`; its GraphQL enum spells the names in
 * upper snake case (timedOut → TIMED_OUT) and takes the values as the enum's internal values, so resolvers and
 * services see numbers while GraphQL clients see names. REST maps a name back to the number it documents.
 */
export type EnumTable = Readonly<Record<string, string | number>>;

/** The GraphQL name of a table key: partiallyComplete → PARTIALLY_COMPLETE. */
export const enumName = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

/** A table as a GraphQL enum type's resolver map (name → internal value). */
export function enumResolver<T extends EnumTable>(table: T): Record<string, T[keyof T]> {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [enumName(k), v as T[keyof T]]));
}

/** The value behind a GraphQL enum name, e.g. for a REST answer ('RUNNING' → 1). */
export function enumValue<T extends EnumTable>(table: T, name: string): T[keyof T] {
  const key = Object.keys(table).find((k) => enumName(k) === name);
  if (key === undefined) throw new Error(`${name} is not a value of this enum`);
  return table[key] as T[keyof T];
}

/**
 * The GraphQL name of a value, for REST input that arrives as BloodHound's value (1 → 'RUNNING'). `N` is the
 * generated enum type the caller passes the name to; the schema's enum and the table are checked to match when
 * the schema is built (a resolver name that the enum lacks stops it).
 */
export function enumNameOf<N extends string>(table: EnumTable, value: string | number): N {
  const key = Object.keys(table).find((k) => table[k] === value);
  if (key === undefined) throw new Error(`${String(value)} is not a value of this enum`);
  return enumName(key) as N;
}
