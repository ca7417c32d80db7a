import { AZ_EDGE_KINDS, AZ_NODE_KINDS } from '../../../src/graph/kinds';
import { NOW, T, U1, U2, U3, G1, SP, SUB, RG, MG, MG2, KV, VM, MI, UAMI, convertFile, edgesOf } from './azure-records';

/**
 * The AzureHound converters on realistic Resource Manager output (test/fixtures/azurehound/resources.json): the
 * nodes, properties and edges BloodHound's ein/azure.go writes for the same records.
 */
describe('AzureHound Resource Manager records', () => {
  const o = convertFile('resources.json');
  const MC = `${RG}/PROVIDERS/MICROSOFT.CONTAINERSERVICE/MANAGEDCLUSTERS/AKS-01`;

  it('converts every record of the file', () => {
    expect(o.unknown).toEqual({});
  });

  it('management groups, their descendants, the subscription and the resource group form the containment tree', () => {
    expect(o.nodes.get(MG)!.properties).toMatchObject({
      name: 'CONTOSO ROOT@CONTOSO.ONMICROSOFT.COM',
      displayname: 'Contoso Root',
      tenantid: T,
    });
    expect(edgesOf(o, 'AZManagementGroup')).toEqual([`${T} -[AZContains]-> ${MG}`, `${T} -[AZContains]-> ${MG2}`].sort());
    expect(edgesOf(o, 'AZManagementGroupDescendant')).toEqual([`${MG} -[AZContains]-> ${MG2}`, `${MG2} -[AZContains]-> ${SUB}`].sort());
    expect(o.nodes.get(SUB)!.properties).toMatchObject({ name: 'PRODUCTION', displayname: 'Production', tenantid: T });
    expect(edgesOf(o, 'AZSubscription')).toEqual([`${T} -[AZContains]-> ${SUB}`]);
    expect(o.nodes.get(RG)!.properties).toMatchObject({ name: 'PROD-RG', tenantid: T });
    expect(edgesOf(o, 'AZResourceGroup')).toEqual([`${SUB} -[AZContains]-> ${RG}`]);
  });

  it('AZKeyVault: RBAC flag, contained by its resource group', () => {
    expect(o.nodes.get(KV)!.properties).toMatchObject({ name: 'PROD-KV', enablerbacauthorization: false, tenantid: T, lastcollected: NOW });
    expect(edgesOf(o, 'AZKeyVault')).toEqual([`${RG} -[AZContains]-> ${KV}`]);
  });

  it('AZVM: operating system, system- and user-assigned identities (only those with a client id)', () => {
    expect(o.nodes.get(VM)!.properties).toMatchObject({ name: 'WEB-01', operatingsystem: 'Linux', tenantid: T });
    expect(edgesOf(o, 'AZVM')).toEqual(
      [`${RG} -[AZContains]-> ${VM}`, `${VM} -[AZManagedIdentity]-> ${MI}`, `${VM} -[AZManagedIdentity]-> ${UAMI}`].sort(),
    );
  });

  it.each([
    ['AZVMScaleSet', 'WEB-SS', 'MICROSOFT.COMPUTE/VIRTUALMACHINESCALESETS/WEB-SS', true],
    ['AZFunctionApp', 'FUNC-01', 'MICROSOFT.WEB/SITES/FUNC-01', true],
    ['AZWebApp', 'SITE-01', 'MICROSOFT.WEB/SITES/SITE-01', false],
    ['AZLogicApp', 'FLOW-01', 'MICROSOFT.LOGIC/WORKFLOWS/FLOW-01', true],
    ['AZAutomationAccount', 'AUTO-01', 'MICROSOFT.AUTOMATION/AUTOMATIONACCOUNTS/AUTO-01', true],
    ['AZContainerRegistry', 'ACR01', 'MICROSOFT.CONTAINERREGISTRY/REGISTRIES/ACR01', true],
  ])('%s: a named resource in its group, with its managed identities', (kind, name, tail, identities) => {
    const id = `${RG}/PROVIDERS/${tail}`;
    expect(o.nodes.get(id)).toEqual({
      objectid: id,
      kinds: ['AZBase', kind],
      properties: { objectid: id, name, tenantid: T, lastseen: NOW, lastcollected: NOW },
    });
    const expected = [`${RG} -[AZContains]-> ${id}`];
    if (identities) expected.push(`${id} -[AZManagedIdentity]-> ${MI}`, `${id} -[AZManagedIdentity]-> ${UAMI}`);
    expect(edgesOf(o, kind)).toEqual(expected.sort());
  });

  it('AZManagedCluster: its node resource group', () => {
    const nodeRg = `${SUB}/RESOURCEGROUPS/MC_PROD-RG_AKS-01_WESTEUROPE`;
    expect(o.nodes.get(MC)!.properties).toMatchObject({ name: 'AKS-01', noderesourcegroupid: nodeRg });
    expect(edgesOf(o, 'AZManagedCluster')).toEqual([`${MC} -[AZNodeResourceGroup]-> ${nodeRg}`, `${RG} -[AZContains]-> ${MC}`].sort());
  });

  // Role records on a scope: the principal gets the role's edge to the scope; inherited assignments are skipped.
  it.each([
    // subscriptions, resource groups and management groups
    ['AZSubscriptionOwner', U1, 'AZOwner', SUB],
    ['AZSubscriptionUserAccessAdmin', U2, 'AZUserAccessAdministrator', SUB],
    ['AZResourceGroupOwner', U1, 'AZOwner', RG],
    ['AZResourceGroupUserAccessAdmin', U3, 'AZUserAccessAdministrator', RG],
    ['AZManagementGroupOwner', U1, 'AZOwner', MG],
    ['AZManagementGroupUserAccessAdmin', G1, 'AZUserAccessAdministrator', MG],
    // key vault roles
    ['AZKeyVaultOwner', U1, 'AZOwner', KV],
    ['AZKeyVaultUserAccessAdmin', U2, 'AZUserAccessAdministrator', KV],
    ['AZKeyVaultContributor', U3, 'AZContributor', KV],
    ['AZKeyVaultKVContributor', G1, 'AZKeyVaultContributor', KV],
    // virtual machine roles, assigned on the VM itself (Avere contributors whatever their case)
    ['AZVMAdminLogin', U2, 'AZVMAdminLogin', VM],
    ['AZVMAvereContributor', U3, 'AZAvereContributor', VM],
    ['AZVMContributor', U3, 'AZContributor', VM],
    ['AZVMVMContributor', G1, 'AZVMContributor', VM],
    ['AZVMOwner', U1, 'AZOwner', VM],
    ['AZVMUserAccessAdmin', U2, 'AZUserAccessAdministrator', VM],
  ])('%s: the role edge from its principal to its scope', (kind, principal, edge, scope) => {
    expect(edgesOf(o, kind)).toEqual([`${principal} -[${edge}]-> ${scope}`]);
  });

  it('a role edge on a scope goes from AZBase (any principal) to the scope kind', () => {
    expect(o.edges.get(`${U1} -[AZOwner]-> ${SUB}`)).toMatchObject({ startKind: 'AZBase', endKind: 'AZSubscription' });
  });

  it('AZKeyVaultAccessPolicy: one edge per permission granted', () => {
    expect(edgesOf(o, 'AZKeyVaultAccessPolicy')).toEqual([`${SP} -[AZGetCertificates]-> ${KV}`, `${SP} -[AZGetSecrets]-> ${KV}`]);
  });

  it.each([
    ['AZVMScaleSetRoleAssignment', 'MICROSOFT.COMPUTE/VIRTUALMACHINESCALESETS/WEB-SS', 'AZVMContributor'],
    ['AZFunctionAppRoleAssignment', 'MICROSOFT.WEB/SITES/FUNC-01', 'AZWebsiteContributor'],
    ['AZWebAppRoleAssignment', 'MICROSOFT.WEB/SITES/SITE-01', 'AZWebsiteContributor'],
    ['AZLogicAppRoleAssignment', 'MICROSOFT.LOGIC/WORKFLOWS/FLOW-01', 'AZLogicAppContributor'],
    ['AZAutomationAccountRoleAssignment', 'MICROSOFT.AUTOMATION/AUTOMATIONACCOUNTS/AUTO-01', 'AZAutomationContributor'],
    ['AZContainerRegistryRoleAssignment', 'MICROSOFT.CONTAINERREGISTRY/REGISTRIES/ACR01', 'AZContributor'],
    ['AZManagedClusterRoleAssignment', 'MICROSOFT.CONTAINERSERVICE/MANAGEDCLUSTERS/AKS-01', 'AZAKSContributor'],
  ])('%s: the resource-specific role assigned on the resource; inherited and reader assignments skipped', (kind, tail, edge) => {
    expect(edgesOf(o, kind)).toEqual([`${U1} -[${edge}]-> ${RG}/PROVIDERS/${tail}`]);
  });

  it('every node and edge kind written is listed in src/graph/kinds.ts', () => {
    const all = [convertFile('entra.json'), o];
    const nodeKinds = new Set(all.flatMap((x) => [...x.nodes.values()].flatMap((n) => n.kinds)));
    const edgeKinds = new Set(all.flatMap((x) => [...x.edges.values()].map((e) => e.kind)));
    for (const k of nodeKinds) expect(['AZBase', 'Base', 'User', 'Group', ...AZ_NODE_KINDS]).toContain(k);
    for (const k of edgeKinds) expect(AZ_EDGE_KINDS).toContain(k);
    expect(AZ_EDGE_KINDS).toEqual(expect.arrayContaining(['AZAuthenticatesTo', 'AZRoleEligible', 'AZRoleApprover']));
    expect(AZ_NODE_KINDS).toContain('AZFederatedIdentityCredential');
  });
});
