import { obj, str, type Obj } from '../fields.js';
import { at, b, managedIdentities, s, up, type AzureOut } from './emit.js';

/**
 * Azure Resource Manager containers and resources: management groups, subscriptions, resource groups and the
 * resources AzureHound lists, each contained by its parent, with the managed identities it runs as.
 */

/** `/subscriptions/<id>` from a subscription reference AzureHound writes either bare or as a resource id. */
const subscriptionPath = (v: string | undefined) => (!v ? undefined : (v.startsWith('/') ? v : `/subscriptions/${v}`).toUpperCase());

export function managementGroup(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  const tenantId = up(str(d, 'tenantId'));
  const displayName = s(obj(d, 'properties'), 'displayName');
  out.node('AZManagementGroup', id, {
    name: at(displayName, s(d, 'tenantName')),
    // Analysis renames the group DISPLAYNAME@TENANT NAME when the record lacks the tenant's name (FixManagementGroupNames).
    displayname: displayName,
    tenantid: tenantId ?? '',
  });
  out.edge(tenantId, 'AZTenant', id, 'AZManagementGroup', 'AZContains');
}

/** A management group's child (a group or a subscription): BloodHound does not type the child (Entity). */
export function managementGroupDescendant(d: Obj, out: AzureOut): void {
  const parent = up(str(obj(obj(d, 'properties'), 'parent'), 'id'));
  out.edge(parent, 'AZManagementGroup', up(str(d, 'id')), 'AZBase', 'AZContains');
}

export function subscription(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id')) ?? subscriptionPath(str(d, 'subscriptionId'));
  const tenantId = up(str(d, 'tenantId'));
  out.node('AZSubscription', id, {
    displayname: s(d, 'displayName'),
    name: s(d, 'displayName').toUpperCase(),
    tenantid: tenantId ?? '',
  });
  out.edge(tenantId, 'AZTenant', id, 'AZSubscription', 'AZContains');
}

export function resourceGroup(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  out.node('AZResourceGroup', id, { name: s(d, 'name').toUpperCase(), tenantid: s(d, 'tenantId').toUpperCase() });
  out.edge(subscriptionPath(str(d, 'subscriptionId')), 'AZSubscription', id, 'AZResourceGroup', 'AZContains');
}

export function keyVault(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  out.node('AZKeyVault', id, {
    name: s(d, 'name').toUpperCase(),
    enablerbacauthorization: b(obj(d, 'properties'), 'enableRbacAuthorization'),
    tenantid: s(d, 'tenantId').toUpperCase(),
  });
  // Key vault records name their resource group "resourceGroup" (a full id), unlike the other resources.
  out.edge(up(str(d, 'resourceGroup')), 'AZResourceGroup', id, 'AZKeyVault', 'AZContains');
}

export function virtualMachine(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  const osDisk = obj(obj(obj(d, 'properties'), 'storageProfile'), 'osDisk');
  out.node('AZVM', id, {
    name: s(d, 'name').toUpperCase(),
    operatingsystem: s(osDisk, 'osType'),
    tenantid: s(d, 'tenantId').toUpperCase(),
  });
  out.edge(up(str(d, 'resourceGroupId')), 'AZResourceGroup', id, 'AZVM', 'AZContains');
  managedIdentities(out, d, id, 'AZVM');
}

/**
 * The resources that carry only a name, their resource group and managed identities: scale sets, function, web and
 * logic apps, automation accounts and container registries.
 */
export function namedResource(kind: string) {
  return (d: Obj, out: AzureOut): void => {
    const id = up(str(d, 'id'));
    out.node(kind, id, { name: s(d, 'name').toUpperCase(), tenantid: s(d, 'tenantId').toUpperCase() });
    out.edge(up(str(d, 'resourceGroupId')), 'AZResourceGroup', id, kind, 'AZContains');
    managedIdentities(out, d, id, kind);
  };
}

/** An AKS cluster, and the resource group Azure creates for its nodes (AZNodeResourceGroup). */
export function managedCluster(d: Obj, out: AzureOut): void {
  const id = up(str(d, 'id'));
  const subscriptionId = s(d, 'subscriptionId').replace(/^\/subscriptions\//i, '');
  const nodeGroup = str(obj(d, 'properties'), 'nodeResourceGroup');
  const nodeGroupId = `/subscriptions/${subscriptionId}/resourcegroups/${nodeGroup ?? ''}`.toUpperCase();
  out.node('AZManagedCluster', id, {
    name: s(d, 'name').toUpperCase(),
    tenantid: s(d, 'tenantId').toUpperCase(),
    noderesourcegroupid: nodeGroupId,
  });
  out.edge(up(str(d, 'resourceGroupId')), 'AZResourceGroup', id, 'AZManagedCluster', 'AZContains');
  out.edge(id, 'AZManagedCluster', nodeGroupId, 'AZResourceGroup', 'AZNodeResourceGroup');
}
