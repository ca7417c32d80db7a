import { field, str, type Obj } from '../fields.js';
import { at, b, isoTime, s, up, type AzureOut } from './emit.js';

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

export function user(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  const tenantId = up(str(d, 'tenantId'));
  out.node('AZUser', id, {
    name: s(d, 'userPrincipalName').toUpperCase(),
    enabled: b(d, 'accountEnabled'),
    whencreated: isoTime(d, 'createdDateTime'),
    displayname: s(d, 'displayName'),
    title: s(d, 'jobTitle'),
    pwdlastset: isoTime(d, 'lastPasswordChangeDateTime'),
    email: s(d, 'mail'),
    onpremid: s(d, 'onPremisesSecurityIdentifier'),
    onpremsyncenabled: b(d, 'onPremisesSyncEnabled'),
    userprincipalname: s(d, 'userPrincipalName'),
    usertype: s(d, 'userType'),
    tenantid: tenantId ?? '',
  });
  out.onPremNode('User', str(d, 'onPremisesSecurityIdentifier'));
  out.edge(tenantId, 'AZTenant', id, 'AZUser', 'AZContains');
}

export function group(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  const tenantId = up(str(d, 'tenantId'));
  out.node('AZGroup', id, {
    name: at(s(d, 'displayName'), s(d, 'tenantName')),
    whencreated: isoTime(d, 'createdDateTime'),
    description: s(d, 'description'),
    displayname: s(d, 'displayName'),
    isassignabletorole: b(d, 'isAssignableToRole'),
    onpremid: s(d, 'onPremisesSecurityIdentifier'),
    onpremsyncenabled: b(d, 'onPremisesSyncEnabled'),
    securityenabled: b(d, 'securityEnabled'),
    securityidentifier: s(d, 'securityIdentifier'),
    tenantid: tenantId ?? '',
  });
  out.onPremNode('Group', str(d, 'onPremisesSecurityIdentifier'));
  out.edge(tenantId, 'AZTenant', id, 'AZGroup', 'AZContains');
}

export function app(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'appId'));
  const tenantId = up(str(d, 'tenantId'));
  out.node('AZApp', id, {
    name: at(s(d, 'displayName'), s(d, 'publisherDomain')),
    description: s(d, 'description'),
    displayname: s(d, 'displayName'),
    whencreated: isoTime(d, 'createdDateTime'),
    appid: s(d, 'appId'),
    publisherdomain: s(d, 'publisherDomain'),
    signinaudience: s(d, 'signInAudience'),
    tenantid: tenantId ?? '',
  });
  out.edge(tenantId, 'AZTenant', id, 'AZApp', 'AZContains');
}

export function servicePrincipal(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  const appId = up(str(d, 'appId'));
  const tenantId = up(str(d, 'tenantId'));
  out.node('AZServicePrincipal', id, {
    name: at(s(d, 'displayName'), s(d, 'tenantName')),
    enabled: b(d, 'accountEnabled'),
    displayname: s(d, 'displayName'),
    description: s(d, 'description'),
    appownerorganizationid: s(d, 'appOwnerOrganizationId'),
    appdescription: s(d, 'appDescription'),
    appdisplayname: s(d, 'appDisplayName'),
    loginurl: s(d, 'loginUrl'),
    serviceprincipaltype: s(d, 'servicePrincipalType'),
    tenantid: tenantId ?? '',
  });
  // The application the principal runs as, possibly registered in another tenant (its owner organisation).
  if (appId)
    out.node('AZApp', appId, { displayname: s(d, 'appDisplayName'), tenantid: s(d, 'appOwnerOrganizationId').toUpperCase() }, false);
  out.edge(appId, 'AZApp', id, 'AZServicePrincipal', 'AZRunsAs');
  out.edge(tenantId, 'AZTenant', id, 'AZServicePrincipal', 'AZContains');
}

export function device(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  const tenantId = up(str(d, 'tenantId'));
  out.node('AZDevice', id, {
    name: at(s(d, 'displayName'), s(d, 'tenantName')),
    displayname: s(d, 'displayName'),
    operatingsystem: s(d, 'operatingSystem'),
    deviceid: s(d, 'deviceId'),
    operatingsystemversion: s(d, 'operatingSystemVersion'),
    trusttype: s(d, 'trustType'),
    tenantid: tenantId ?? '',
  });
  out.edge(tenantId, 'AZTenant', id, 'AZDevice', 'AZContains');
}

/** A directory role; its object id is `ROLEID@TENANTID`, which role assignments and PIM records point at. */
export function role(d: Obj, out: AzureOut): void {
  const tenantId = up(str(d, 'tenantId'));
  const roleId = up(str(d, 'id'));
  const id = roleId && tenantId ? `${roleId}@${tenantId}` : undefined;
  out.node('AZRole', id, {
    name: at(s(d, 'displayName'), s(d, 'tenantName')),
    description: s(d, 'description'),
    displayname: s(d, 'displayName'),
    enabled: b(d, 'isEnabled'),
    isbuiltin: b(d, 'isBuiltIn'),
    templateid: s(d, 'templateId'),
    tenantid: tenantId ?? '',
  });
  out.edge(tenantId, 'AZTenant', id, 'AZRole', 'AZContains');
}
