import type { Properties } from '../../graph/model.js';
import { field, str, type Obj } from '../fields.js';
import { at, b, isoTime, s, up, type AzureOut, type Converter } from './emit.js';

/**
 * Entra ID directory objects: tenants, users, groups, applications, service principals, devices and roles, each a
 * node the tenant contains, with the properties BloodHound's converters write.
 */

export function tenant(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'tenantId'));
  out.node('AZTenant', id, {
    displayname: s(d, 'displayName'),
    name: s(d, 'displayName').toUpperCase(),
    tenantid: id,
    // Only the tenant AzureHound ran against is "collected"; others are referenced (e.g. app owner organisations).
    ...(field(d, 'collected') === true ? { collected: true } : {}),
  });
}

/** How BloodHound writes one kind of object a tenant contains. */
interface TenantObject {
  kind: string;
  /** The node's object id, when it is not the record's "id" upper-cased. */
  id?: (d: Obj, tenantId: string | undefined) => string | undefined;
  /** Record fields kept as they are, each under its name lower-cased (displayName → displayname). */
  strings: string[];
  /** Boolean fields kept the same way. */
  flags?: string[];
  /** The properties BloodHound names otherwise or derives. */
  props: (d: Obj) => Properties;
  /** The Active Directory kind the object may be synced from (its SID in onPremisesSecurityIdentifier). */
  onPrem?: 'User' | 'Group';
  /** Further nodes and edges the record implies. */
  more?: (d: Obj, out: AzureOut, id: string | undefined) => void;
}

/** A tenant object's converter: its node (with `tenantid`), its on-premises origin, and the tenant's AZContains edge. */
function tenantObject(spec: TenantObject): Converter {
  return (d, out) => {
    const tenantId = up(str(d, 'tenantId'));
    const id = spec.id ? spec.id(d, tenantId) : up(str(d, 'id'));
    const props = spec.props(d);
    for (const f of spec.strings) props[f.toLowerCase()] = s(d, f);
    for (const f of spec.flags ?? []) props[f.toLowerCase()] = b(d, f);
    if (spec.onPrem) {
      props.onpremid = s(d, 'onPremisesSecurityIdentifier');
      props.onpremsyncenabled = b(d, 'onPremisesSyncEnabled');
    }
    out.node(spec.kind, id, Object.assign({}, props, { tenantid: tenantId ?? '' })); // not a spread (see ../sharphound.ts)
    if (spec.onPrem) out.onPremNode(spec.onPrem, str(d, 'onPremisesSecurityIdentifier'));
    spec.more?.(d, out, id);
    out.edge(tenantId, 'AZTenant', id, spec.kind, 'AZContains');
  };
}

/** `DISPLAYNAME@TENANT NAME`, how BloodHound names most Entra objects. */
const atTenant = (d: Obj) => at(s(d, 'displayName'), s(d, 'tenantName'));

export const user = tenantObject({
  kind: 'AZUser',
  onPrem: 'User',
  strings: ['displayName', 'userPrincipalName', 'userType'],
  props: (d) => ({
    name: s(d, 'userPrincipalName').toUpperCase(),
    enabled: b(d, 'accountEnabled'),
    whencreated: isoTime(d, 'createdDateTime'),
    title: s(d, 'jobTitle'),
    pwdlastset: isoTime(d, 'lastPasswordChangeDateTime'),
    email: s(d, 'mail'),
  }),
});

export const group = tenantObject({
  kind: 'AZGroup',
  onPrem: 'Group',
  strings: ['description', 'displayName', 'securityIdentifier'],
  flags: ['isAssignableToRole', 'securityEnabled'],
  props: (d) => ({ name: atTenant(d), whencreated: isoTime(d, 'createdDateTime') }),
});

export const app = tenantObject({
  kind: 'AZApp',
  id: (d) => up(str(d, 'appId')),
  strings: ['description', 'displayName', 'appId', 'publisherDomain', 'signInAudience'],
  props: (d) => ({ name: at(s(d, 'displayName'), s(d, 'publisherDomain')), whencreated: isoTime(d, 'createdDateTime') }),
});

export const servicePrincipal = tenantObject({
  kind: 'AZServicePrincipal',
  strings: ['displayName', 'description', 'appOwnerOrganizationId', 'appDescription', 'appDisplayName', 'loginUrl', 'servicePrincipalType'],
  props: (d) => ({ name: atTenant(d), enabled: b(d, 'accountEnabled') }),
  // The application the principal runs as, possibly registered in another tenant (its owner organisation).
  more: (d, out, id) => {
    const appId = up(str(d, 'appId'));
    if (appId)
      out.node('AZApp', appId, { displayname: s(d, 'appDisplayName'), tenantid: s(d, 'appOwnerOrganizationId').toUpperCase() }, false);
    out.edge(appId, 'AZApp', id, 'AZServicePrincipal', 'AZRunsAs');
  },
});

export const device = tenantObject({
  kind: 'AZDevice',
  strings: ['displayName', 'operatingSystem', 'deviceId', 'operatingSystemVersion', 'trustType'],
  props: (d) => ({ name: atTenant(d) }),
});

/** A directory role; its object id is `ROLEID@TENANTID`, which role assignments and PIM records point at. */
export const role = tenantObject({
  kind: 'AZRole',
  id: (d, tenantId) => {
    const roleId = up(str(d, 'id'));
    return roleId && tenantId ? `${roleId}@${tenantId}` : undefined;
  },
  strings: ['description', 'displayName', 'templateId'],
  flags: ['isBuiltIn'],
  props: (d) => ({ name: atTenant(d), enabled: b(d, 'isEnabled') }),
});
