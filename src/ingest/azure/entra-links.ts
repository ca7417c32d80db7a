import { list, obj, str, type Obj } from '../fields.js';
import { directoryObjects, s, up, type AzureOut } from './emit.js';
import { KIND_BY_MS_GRAPH_APP_ROLE, MS_GRAPH_APP_ID } from './ids.js';

/**
 * Relationships between Entra objects: group membership, ownership of groups, applications, service principals and
 * devices, Microsoft Graph application permissions, and federated identity credentials.
 */

export function groupMembers(d: Obj, out: AzureOut): void {
  const groupId = up(str(d, 'groupId'));
  for (const m of directoryObjects(d, 'members', 'member')) {
    if (!m.kind) out.flag('member of an unsupported type');
    else out.edge(m.id, m.kind, groupId, 'AZGroup', 'AZMemberOf');
  }
}

/** Owners of a directory object: `{owners: [{owner: {...}}], <idKey>: id}` → AZOwns. */
function owners(target: string, idKey: string) {
  return (d: Obj, out: AzureOut): void => {
    const targetId = up(str(d, idKey));
    for (const o of directoryObjects(d, 'owners', 'owner')) {
      if (!o.kind) out.flag('owner of an unsupported type');
      else out.edge(o.id, o.kind, targetId, target, 'AZOwns');
    }
  };
}

export const appOwners = owners('AZApp', 'appId');
export const groupOwners = owners('AZGroup', 'groupId');
export const servicePrincipalOwners = owners('AZServicePrincipal', 'servicePrincipalId');
export const deviceOwners = owners('AZDevice', 'deviceId');

/**
 * An app role assignment. Only Microsoft Graph permissions granted to service principals count: both principals
 * become nodes, and the dangerous permissions become AZMG* edges to the Graph service principal.
 */
export function appRoleAssignment(d: Obj, out: AzureOut): void {
  if (str(d, 'appId') !== MS_GRAPH_APP_ID || str(d, 'principalType') !== 'ServicePrincipal') return;
  const principal = up(str(d, 'principalId'));
  const resource = up(str(d, 'resourceId'));
  const tenantid = s(d, 'tenantId').toUpperCase();
  out.node('AZServicePrincipal', principal, { displayname: s(d, 'principalDisplayName').toUpperCase(), tenantid }, false);
  out.node('AZServicePrincipal', resource, { displayname: s(d, 'resourceDisplayName').toUpperCase(), tenantid }, false);
  const kind = KIND_BY_MS_GRAPH_APP_ROLE[s(d, 'appRoleId').toLowerCase()];
  if (kind) out.edge(principal, 'AZServicePrincipal', resource, 'AZServicePrincipal', kind);
}

/**
 * Federated identity credentials of an application: each credential a node that AZAuthenticatesTo the application
 * (BloodHound's AzureFederatedIdentityCredentials golden graph).
 */
export function federatedIdentityCredentials(d: Obj, out: AzureOut): void {
  for (const entry of list(d, 'fics')) {
    const fic = obj(entry, 'fic');
    const id = up(str(fic, 'id'));
    const appId = up(str(entry, 'appId') ?? str(d, 'appId'));
    const audiences = list(fic, 'audiences').filter((a): a is string => typeof a === 'string');
    // BloodHound's golden graph names a credential by its own name; newer AzureHound records also carry the tenant.
    const tenantid = up(str(entry, 'tenantId') ?? str(d, 'tenantId'));
    out.node(
      'AZFederatedIdentityCredential',
      id,
      {
        name: s(fic, 'name').toUpperCase(),
        audiences,
        description: s(fic, 'description'),
        issuer: s(fic, 'issuer'),
        subject: s(fic, 'subject'),
        tenantid,
      },
      false,
    );
    out.edge(id, 'AZFederatedIdentityCredential', appId, 'AZApp', 'AZAuthenticatesTo');
  }
}
