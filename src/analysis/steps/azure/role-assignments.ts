import { nextTurn } from '../../../next-turn.js';
import { turnDue, type AnalysisGraph, type ANode, type Changes } from '../../view.js';
import { DERIVED, ROLE } from './kinds.js';
import { Tenant } from './tenant.js';

/** Roles that read, invite or reset passwords only: every role below may reset the passwords of their holders. */
const LOW_ROLES = [
  ROLE.reportsReader,
  ROLE.messageCenterReader,
  ROLE.guestInviter,
  ROLE.directoryReaders,
  ROLE.passwordAdmin,
  ROLE.usageSummaryReportsReader,
];

/** Roles whose holders reset the passwords of users that hold only these roles (or none). */
const RESET_SCOPE: Record<string, string[] | 'all' | 'unprivileged'> = {
  [ROLE.globalAdmin]: 'all',
  [ROLE.privilegedAuthAdmin]: 'all',
  [ROLE.partnerTier2Support]: 'all',
  [ROLE.partnerTier1Support]: 'unprivileged',
  [ROLE.userAdmin]: [ROLE.userAdmin, ROLE.helpdeskAdmin, ROLE.groupsAdmin, ...LOW_ROLES],
  [ROLE.helpdeskAdmin]: [ROLE.helpdeskAdmin, ...LOW_ROLES],
  [ROLE.authenticationAdmin]: [ROLE.authenticationAdmin, ...LOW_ROLES],
  [ROLE.passwordAdmin]: [ROLE.passwordAdmin, ROLE.guestInviter, ROLE.directoryReaders],
};

/** Roles that may add members to any group, and those limited to groups that are not role-assignable. */
const ADD_MEMBERS_ANY_GROUP = [ROLE.globalAdmin, ROLE.privilegedRoleAdmin];
const ADD_MEMBERS_UNPROTECTED_GROUP = [
  ROLE.groupsAdmin,
  ROLE.directoryWriters,
  ROLE.identityGovernanceAdmin,
  ROLE.userAdmin,
  ROLE.intuneAdmin,
  ROLE.knowledgeAdmin,
  ROLE.knowledgeManager,
];

/**
 * Who holds which role in one tenant (BloodHound's RoleAssignments): members per template id, the tenant's users
 * split by whether they hold any role, and the users who are direct members of a role-assignable group.
 */
class Assignments {
  readonly byRole = new Map<string, Set<number>>();
  readonly users: Set<number>;
  readonly usersWithoutRoles = new Set<number>();
  readonly inProtectedGroup = new Set<number>();

  constructor(
    g: AnalysisGraph,
    readonly tenant: Tenant,
  ) {
    for (const t of tenant.templates()) this.byRole.set(t, tenant.roleMembers(t));
    this.users = new Set(tenant.users.map((u) => u.id));
    const anyRole = new Set<number>();
    for (const members of this.byRole.values()) for (const id of members) anyRole.add(id);
    for (const id of this.users) if (!anyRole.has(id)) this.usersWithoutRoles.add(id);
    // "true" as well as true: BloodHound's filter compares with the string (see docs/decisions.md).
    for (const group of tenant.groups) {
      const p = group.props.isassignabletorole;
      if (p !== true && p !== 'true') continue;
      for (const e of g.in(group.id, 'AZMemberOf')) if (this.users.has(e.startId)) this.inProtectedGroup.add(e.startId);
    }
  }

  withRole(...templates: string[]): Set<number> {
    const out = new Set<number>();
    for (const t of templates) for (const id of this.byRole.get(t) ?? []) out.add(id);
    return out;
  }

  /** Users holding one of `templates` and no other role. */
  usersOnlyWith(templates: string[]): Set<number> {
    const allowed = new Set(templates);
    const out = this.withRole(...templates);
    for (const [t, members] of this.byRole) if (!allowed.has(t)) for (const id of members) out.delete(id);
    for (const id of out) if (!this.users.has(id)) out.delete(id);
    return out;
  }

  resetTargets(template: string): Set<number> {
    const scope = RESET_SCOPE[template];
    if (scope === 'all') return this.users;
    const out = new Set(this.usersWithoutRoles);
    if (Array.isArray(scope)) for (const id of this.usersOnlyWith(scope)) out.add(id);
    for (const id of this.inProtectedGroup) out.delete(id);
    return out;
  }
}

/**
 * Edges from directory role assignments (UserRoleAssignments): AZGlobalAdmin, AZPrivilegedRoleAdmin and
 * AZPrivilegedAuthAdmin from every holder to the tenant; AZResetPassword from password-resetting roles to the users
 * they may reset; AZAddMembers from users and service principals holding group-writing roles to the groups.
 */
export async function roleAssignments(g: AnalysisGraph, c: Changes): Promise<void> {
  // A tenant's password resets are roles × users (~200 ms in one piece at tier M, on the serving thread): a turn
  // every few thousand edges.
  const due = turnDue();
  for (const tenant of Tenant.all(g)) {
    const a = new Assignments(g, tenant);
    const toTenant = (template: string, kind: string) => {
      for (const id of a.withRole(template)) c.edge(g.node(id), tenant.node, kind);
    };
    toTenant(ROLE.globalAdmin, DERIVED.globalAdmin);
    toTenant(ROLE.privilegedRoleAdmin, DERIVED.privilegedRoleAdmin);
    toTenant(ROLE.privilegedAuthAdmin, DERIVED.privilegedAuthAdmin);

    for (const role of tenant.rolesOf(...Object.keys(RESET_SCOPE))) {
      for (const id of a.resetTargets(String(role.props.templateid).toLowerCase())) {
        if (due()) await nextTurn();
        c.edge(role, g.node(id), DERIVED.resetPassword);
      }
    }

    const principals = new Set([...a.users, ...tenant.servicePrincipals.map((s) => s.id)]);
    const holders = (templates: string[]) => [...a.withRole(...templates)].filter((id) => principals.has(id)).map((id) => g.node(id));
    const anyGroup = holders(ADD_MEMBERS_ANY_GROUP);
    const unprotectedGroup = holders(ADD_MEMBERS_UNPROTECTED_GROUP);
    for (const group of tenant.groups) {
      const targets: ANode[] = group.props.isassignabletorole === false ? [...anyGroup, ...unprotectedGroup] : anyGroup;
      for (const p of targets) {
        if (due()) await nextTurn();
        c.edge(p, group, DERIVED.addMembers);
      }
    }
  }
}
