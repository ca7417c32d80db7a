import type { AnalysisGraph, Changes } from '../../view.js';
import { AZ, DERIVED, ROLE } from './kinds.js';
import { flag, Tenant } from './tenant.js';

const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);

/**
 * AZRoleApprover (PIM): for each role of a tenant (by its `tenantid`) whose activation requires approval and
 * whose policy lists approvers (either list present, even empty), the listed users and groups approve it; with
 * no one listed, the tenant's Global Administrator and Privileged Role Administrator roles do.
 */
export function roleApprovers(g: AnalysisGraph, c: Changes): void {
  const tenants = new Map(Tenant.all(g).map((t) => [t.node.objectid, t]));
  for (const role of g.ofKind(AZ.role)) {
    const tenant = tenants.get(String(role.props.tenantid ?? '').toUpperCase());
    if (!tenant || !flag(role, 'enduserassignmentrequiresapproval')) continue;
    const users = role.props.enduserassignmentuserapprovers;
    const groups = role.props.enduserassignmentgroupapprovers;
    if (users == null && groups == null) continue;
    const approvers = [...ids(users), ...ids(groups)];
    if (!approvers.length) {
      for (const admin of tenant.rolesOf(ROLE.privilegedRoleAdmin, ROLE.globalAdmin)) c.edge(admin, role, DERIVED.roleApprover);
      continue;
    }
    for (const objectid of approvers) {
      const approver = g.byObjectId.get(objectid.toUpperCase());
      if (approver?.kinds.has(AZ.base)) c.edge(approver, role, DERIVED.roleApprover);
    }
  }
}
