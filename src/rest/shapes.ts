/**
 * The API document's nullable wrappers. GraphQL returns plain nulls; REST responses always carry the wrapper,
 * with the zero value when not valid (as BloodHound's Go types marshal).
 */
const ZERO_TIME = '0001-01-01T00:00:00Z';

export const nullTime = (v: string | null | undefined) => ({ time: v ?? ZERO_TIME, valid: v != null });
export const nullInt32 = (v: number | null | undefined) => ({ int32: v ?? 0, valid: v != null });
export const nullInt64 = (v: number | null | undefined) => ({ int64: v ?? 0, valid: v != null });
export const nullUuid = (v: string | null | undefined) => ({ uuid: v ?? '00000000-0000-0000-0000-000000000000', valid: v != null });
export const nullString = (v: string | null | undefined) => ({ string: v ?? '', valid: v != null });

/** A timestamp field that must always be present; the zero time stands in when the value is absent. */
export const time = (v: string | null | undefined) => v ?? ZERO_TIME;
