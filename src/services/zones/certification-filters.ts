import type { CertificationColumn, CertificationFilter, CertificationOp } from '../../db/stores/zones/tags-store.js';
import { badRequest } from '../../errors.js';

/**
 * Filterable columns of the member certification list with their value type and predicates, as BloodHound's
 * AssetGroupMemberWithCertification.ValidFilters lists them. GraphQL's MemberCertificationColumn names each.
 */
const NUMERIC_OPS: CertificationOp[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
const TEXT_OPS: CertificationOp[] = ['eq', 'neq', '~eq'];
export const CERTIFICATION_FILTERS: Record<CertificationColumn, { type: 'int' | 'text' | 'time'; ops: CertificationOp[] }> = {
  asset_group_tag_id: { type: 'int', ops: NUMERIC_OPS },
  certified: { type: 'int', ops: NUMERIC_OPS },
  certified_by: { type: 'text', ops: TEXT_OPS },
  created_at: { type: 'time', ops: NUMERIC_OPS },
  environments: { type: 'text', ops: TEXT_OPS },
  name: { type: 'text', ops: TEXT_OPS },
  object_id: { type: 'text', ops: TEXT_OPS },
  primary_kind: { type: 'text', ops: TEXT_OPS },
};
export const CERTIFICATION_FILTER_COLUMN = Object.fromEntries(Object.keys(CERTIFICATION_FILTERS).map((c) => [c, c])) as {
  [C in CertificationColumn]: C;
};

/** `predicate:value` (the predicate defaults to eq) of one column → a typed filter; 400 naming what is wrong. */
export function certificationFilter(column: CertificationColumn, raw: string): CertificationFilter {
  const spec = CERTIFICATION_FILTERS[column];
  const m = /^(eq|~eq|neq|gt|gte|lt|lte):/.exec(raw);
  const op = (m?.[1] ?? 'eq') as CertificationOp;
  if (!spec.ops.includes(op)) throw badRequest('asset-group-tags', `${column} takes the predicates ${spec.ops.join(', ')}; not ${op}.`);
  const text = m ? raw.slice(m[0].length) : raw;
  if (spec.type === 'int') {
    if (!/^-?[0-9]{1,10}$/.test(text)) throw badRequest('asset-group-tags', `${column} must be an integer, with an optional predicate.`);
    return { column, op, value: Number(text) };
  }
  if (spec.type === 'time') {
    const d = new Date(text);
    if (!/^\d{4}-\d{2}-\d{2}([Tt ].+)?$/.test(text) || Number.isNaN(d.getTime()))
      throw badRequest('asset-group-tags', `${column} must be an RFC 3339 time, with an optional predicate.`);
    return { column, op, value: d };
  }
  // Object ids are stored upper-cased; an exact match on one is found whatever its case.
  return { column, op, value: column === 'object_id' && op !== '~eq' ? text.toUpperCase() : text };
}
