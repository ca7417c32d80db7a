import type { AnalysisGraph, ANode, Changes } from '../../view.js';
import { AZ, DERIVED, RAW } from './kinds.js';
import { Tenant } from './tenant.js';

/**
 * Microsoft Graph application permissions (AppRoleAssignments): a service principal granted one of the abusable
 * MS Graph app roles on a service principal of the tenant (the MS Graph SP) can act on the whole tenant.
 *
 * | permission                          | edges                                               |
 * | ----------------------------------- | --------------------------------------------------- |
 * | Application.ReadWrite.All           | AZMGAddSecret, AZMGAddOwner → every app and SP      |
 * | AppRoleAssignment.ReadWrite.All     | AZMGGrantAppRoles → tenant                          |
 * | Directory.ReadWrite.All             | AZMGAddMember, AZMGAddOwner → non-role-assignable groups |
 * | Group.ReadWrite.All                 | AZMGAddMember, AZMGAddOwner → non-role-assignable groups |
 * | GroupMember.ReadWrite.All           | AZMGAddMember → non-role-assignable groups          |
 * | RoleManagement.ReadWrite.Directory  | AZMGGrantAppRoles → tenant (if it has roles), AZMGGrantRole → roles, AZMGAddSecret + AZMGAddOwner → apps and SPs, AZMGAddMember + AZMGAddOwner → every group |
 * | ServicePrincipalEndpoint.ReadWrite.All | AZMGAddOwner → every SP                          |
 */
export function appRoleAssignments(g: AnalysisGraph, c: Changes): void {
  for (const tenant of Tenant.all(g)) {
    if (!tenant.servicePrincipals.length) continue;
    const holders = (permission: string): ANode[] => {
      const seen = new Map<number, ANode>();
      for (const sp of tenant.servicePrincipals) {
        for (const e of g.in(sp.id, permission)) {
          const s = g.node(e.startId);
          if (s.kinds.has(AZ.sp)) seen.set(s.id, s);
        }
      }
      return [...seen.values()];
    };
    const grant = (sources: ANode[], targets: ANode[], kinds: string[]) => {
      for (const s of sources) for (const t of targets) for (const k of kinds) c.edge(s, t, k);
    };
    // isassignabletorole must be false, not merely absent (BloodHound's query compares with false).
    const unprotectedGroups = tenant.groups.filter((x) => x.props.isassignabletorole === false);
    const appsAndSps = [...tenant.servicePrincipals, ...tenant.apps];

    grant(holders(RAW.applicationReadWriteAll), appsAndSps, [DERIVED.mgAddSecret, DERIVED.mgAddOwner]);
    grant(holders(RAW.appRoleAssignmentReadWriteAll), [tenant.node], [DERIVED.mgGrantAppRoles]);
    grant(holders(RAW.directoryReadWriteAll), unprotectedGroups, [DERIVED.mgAddMember, DERIVED.mgAddOwner]);
    grant(holders(RAW.groupReadWriteAll), unprotectedGroups, [DERIVED.mgAddMember, DERIVED.mgAddOwner]);
    grant(holders(RAW.groupMemberReadWriteAll), unprotectedGroups, [DERIVED.mgAddMember]);

    const roleManagers = holders(RAW.roleManagementReadWriteDirectory);
    if (tenant.roles.length) grant(roleManagers, [tenant.node], [DERIVED.mgGrantAppRoles]);
    grant(roleManagers, tenant.roles, [DERIVED.mgGrantRole]);
    grant(roleManagers, appsAndSps, [DERIVED.mgAddSecret, DERIVED.mgAddOwner]);
    grant(roleManagers, tenant.groups, [DERIVED.mgAddMember, DERIVED.mgAddOwner]);

    grant(holders(RAW.servicePrincipalEndpointReadWriteAll), tenant.servicePrincipals, [DERIVED.mgAddOwner]);
  }
}
