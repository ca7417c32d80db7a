import type { MinimalUser, UsersStore } from '../../db/stores/identity/users-store.js';
import { sortKeys } from '../common/paging.js';
import { buildFilter, type ColumnFilter, type FilterColumn } from './column-filters.js';

const CONTEXT = 'users';

/** BloodHound's filterable columns of GET /api/v2/bloodhound-users-minimal, plus email_address, which it returns. */
export const MINIMAL_FILTERS: Record<string, FilterColumn> = {
  id: { sql: 'u.id', type: 'uuid', predicates: ['eq', 'neq'] },
  first_name: { sql: 'u.first_name', type: 'text', predicates: ['eq', 'neq', '~eq'] },
  last_name: { sql: 'u.last_name', type: 'text', predicates: ['eq', 'neq', '~eq'] },
  principal_name: { sql: 'u.principal_name', type: 'text', predicates: ['eq', 'neq', '~eq'] },
  email_address: { sql: 'u.email_address', type: 'text', predicates: ['eq', 'neq', '~eq'] },
};
const SORTABLE = ['id', 'first_name', 'last_name', 'principal_name', 'email_address'] as const;

/**
 * The users someone may share a query with: every enabled user, with nothing but their names and id (BloodHound's
 * ListActiveUsersMinimal). Sorted by id unless `sort_by` says otherwise.
 */
export function createMinimalUsers(users: UsersStore) {
  return async (filters: readonly ColumnFilter[], sortBy: readonly string[] | null | undefined): Promise<MinimalUser[]> => {
    const { where, params } = buildFilter(CONTEXT, filters, MINIMAL_FILTERS);
    const keys = sortKeys(CONTEXT, sortBy, SORTABLE);
    const order = [...keys.map((k) => `u.${k.column}${k.descending ? ' desc' : ''}`), 'u.id'].join(', ');
    return users.listMinimal(where, order, params);
  };
}
