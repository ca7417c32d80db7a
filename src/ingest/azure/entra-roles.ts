import { field, list, str, type Obj } from '../fields.js';
import { b, s, up, type AzureOut } from './emit.js';
import { ADD_SECRET_KIND, ENTRA_ROLE } from './ids.js';

/**
 * Entra directory roles held by principals: active assignments (AZHasRole, or AZAppAdmin/AZCloudAppAdmin on a scoped
 * object), PIM eligibility (AZRoleEligible) and the PIM policies that say who approves activation (AZRoleApprover).
 * A role's object id is `ROLEDEFINITIONID@TENANTID`.
 */
const roleId = (definition: string | undefined, tenant: string | undefined) =>
  definition && tenant ? `${definition}@${tenant}`.toUpperCase() : undefined;

export function roleAssignments(d: Obj, out: AzureOut): void {
  const tenantId = s(d, 'tenantId');
  for (const a of list(d, 'roleAssignments')) {
    const definition = s(a, 'roleDefinitionId');
    const directoryScope = s(a, 'directoryScopeId');
    const principal = up(str(a, 'principalId'));
    const scope = directoryScope === '/' ? tenantId.toUpperCase() : directoryScope.slice(1).toUpperCase();
    const addSecret = ADD_SECRET_KIND[definition];
    // An application administrator scoped to one application or principal controls that object directly.
    if (addSecret && directoryScope !== '/') out.edge(principal, 'AZBase', scope || undefined, 'AZBase', addSecret);
    else out.edge(principal, 'AZBase', roleId(definition, tenantId), 'AZRole', 'AZHasRole', { scope });
  }
}

/** PIM eligibility; like BloodHound, only directory-wide eligibility ("/") becomes an edge for now. */
export function roleEligibilityScheduleInstance(d: Obj, out: AzureOut): void {
  if (s(d, 'directoryScopeId') !== '/') return;
  out.edge(up(str(d, 'principalId')), 'AZBase', roleId(str(d, 'roleDefinitionId'), str(d, 'tenantId')), 'AZRole', 'AZRoleEligible');
}

const upperList = (d: Obj, name: string): string[] | undefined => {
  const v = field(d, name);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').map((x) => x.toUpperCase()) : undefined;
};

/**
 * A PIM role management policy assignment: the role node gets the policy's activation requirements; when activation
 * needs approval, each approving user or group (or, with none named, the Privileged Role Administrator role)
 * becomes an AZRoleApprover of the role.
 */
export function roleManagementPolicyAssignment(d: Obj, out: AzureOut): void {
  const tenantId = s(d, 'tenantId');
  const id = roleId(str(d, 'roleDefinitionId'), tenantId);
  const users = upperList(d, 'endUserAssignmentUserApprovers');
  const groups = upperList(d, 'endUserAssignmentGroupApprovers');
  const requiresApproval = b(d, 'endUserAssignmentRequiresApproval');
  out.node(
    'AZRole',
    id,
    {
      roledefinitionid: s(d, 'roleDefinitionId').toUpperCase(),
      tenantid: tenantId.toUpperCase(),
      enduserassignmentrequiresapproval: requiresApproval,
      enduserassignmentrequirescapauthenticationcontext: b(d, 'endUserAssignmentRequiresCAPAuthenticationContext'),
      enduserassignmentuserapprovers: users,
      enduserassignmentgroupapprovers: groups,
      enduserassignmentrequiresmfa: b(d, 'endUserAssignmentRequiresMFA'),
      enduserassignmentrequiresjustification: b(d, 'endUserAssignmentRequiresJustification'),
      enduserassignmentrequiresticketinformation: b(d, 'endUserAssignmentRequiresTicketInformation'),
    },
    false,
  );
  if (!requiresApproval || !id) return;
  for (const u of users ?? []) out.edge(u, 'AZUser', id, 'AZRole', 'AZRoleApprover');
  for (const g of groups ?? []) out.edge(g, 'AZGroup', id, 'AZRole', 'AZRoleApprover');
  if (!users?.length && !groups?.length)
    out.edge(roleId(ENTRA_ROLE.privilegedRoleAdministrator, tenantId), 'AZRole', id, 'AZRole', 'AZRoleApprover');
}
