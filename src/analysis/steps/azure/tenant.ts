import type { AnalysisGraph, ANode } from '../../view.js';
import { AZ, RAW } from './kinds.js';

const PRINCIPAL_KINDS = [AZ.user, AZ.group, AZ.sp];
const isPrincipal = (n: ANode) => PRINCIPAL_KINDS.some((k) => n.kinds.has(k));
const isGroup = (n: ANode) => n.kinds.has(AZ.group);
const built = new WeakMap<AnalysisGraph, Tenant[]>();

/** True only for a boolean true: BloodHound reads these flags as booleans and treats anything else as unset. */
export const flag = (n: ANode, key: string) => n.props[key] === true;

/**
 * What one tenant contains (AZContains from the tenant node, as BloodHound's tenant queries read it), with the
 * tenant's roles by template id.
 */
export class Tenant {
  readonly users: ANode[] = [];
  readonly groups: ANode[] = [];
  readonly servicePrincipals: ANode[] = [];
  readonly apps: ANode[] = [];
  readonly devices: ANode[] = [];
  readonly roles: ANode[] = [];
  private readonly rolesByTemplate = new Map<string, ANode[]>();
  private memberCache = new Map<string, Set<number>>();

  constructor(
    private readonly g: AnalysisGraph,
    readonly node: ANode,
  ) {
    for (const e of g.out(node.id, RAW.contains)) {
      const n = g.node(e.endId);
      if (n.kinds.has(AZ.user)) this.users.push(n);
      if (n.kinds.has(AZ.group)) this.groups.push(n);
      if (n.kinds.has(AZ.sp)) this.servicePrincipals.push(n);
      if (n.kinds.has(AZ.app)) this.apps.push(n);
      if (n.kinds.has(AZ.device)) this.devices.push(n);
      if (n.kinds.has(AZ.role)) {
        this.roles.push(n);
        const template = templateId(n);
        if (template) {
          const list = this.rolesByTemplate.get(template);
          if (list) list.push(n);
          else this.rolesByTemplate.set(template, [n]);
        }
      }
    }
  }

  /** The tenants of a graph, built once per analysis run (the rules never derive the edges a Tenant reads). */
  static all(g: AnalysisGraph): Tenant[] {
    let tenants = built.get(g);
    if (!tenants) built.set(g, (tenants = g.ofKind(AZ.tenant).map((t) => new Tenant(g, t))));
    return tenants;
  }

  /** The tenant's role nodes whose template id is one of `templates` (TenantRoles). */
  rolesOf(...templates: string[]): ANode[] {
    return templates.flatMap((t) => this.rolesByTemplate.get(t) ?? []);
  }

  /** Template ids of the tenant's roles. */
  templates(): string[] {
    return [...this.rolesByTemplate.keys()];
  }

  /**
   * Principals holding any of the roles (RoleMembers): users, groups and service principals with AZHasRole to the
   * role, plus the non-group members of a role-assignable group that holds it. Membership does not go through
   * nested groups, and a group that is not role-assignable passes nothing on (roleDescentFilter).
   */
  roleMembers(...templates: string[]): Set<number> {
    const key = templates.join(',');
    const cached = this.memberCache.get(key);
    if (cached) return cached;
    const members = new Set<number>();
    for (const role of this.rolesOf(...templates)) {
      for (const e of this.g.in(role.id, RAW.hasRole)) {
        const holder = this.g.node(e.startId);
        if (isPrincipal(holder)) members.add(holder.id);
        if (!isGroup(holder) || !flag(holder, 'isassignabletorole')) continue;
        for (const m of this.g.in(holder.id, RAW.memberOf)) {
          const member = this.g.node(m.startId);
          if (!isGroup(member) && isPrincipal(member)) members.add(member.id);
        }
      }
    }
    for (const role of this.rolesOf(...templates)) members.delete(role.id);
    this.memberCache.set(key, members);
    return members;
  }
}

export function templateId(role: ANode): string | undefined {
  const t = role.props.templateid;
  return typeof t === 'string' && t ? t.toLowerCase() : undefined;
}
