import fs from 'node:fs';
import path from 'node:path';
import type { EdgeInput, NodeInput } from '../../../src/graph/model';
import { AZ_EDGE_KINDS, AZ_NODE_KINDS } from '../../../src/graph/kinds';
import { AZURE_CONVERTERS, convertAzure } from '../../../src/ingest/azure';
import { AZURE_UNKNOWN_KINDS, AZUREHOUND } from '../../helpers/fixtures';

/**
 * The AzureHound converters, record kind by record kind, on realistic AzureHound output (test/fixtures/azurehound):
 * the nodes, properties and edges BloodHound's ein/azure.go writes for the same records.
 */
const DIR = AZUREHOUND;
const NOW = '2026-01-01T00:00:00.000Z';
const T = '6C12B0B0-B2CC-4A73-8252-0B94BFCA2145';
const U1 = '1D8A4C57-5B1F-4C3E-9F59-0F8F9D3F0A11';
const U2 = '2E9B5D68-6C20-4D4F-8A6A-1A9A0E4A1B22';
const U3 = '3FAC6E79-7D31-4E50-9B7B-2BAB1F5B2C33';
const G1 = '4ABD7F8A-8E42-4F61-8C8C-3CBC2A6C3D44';
const G2 = '5BCE809B-9F53-4072-9D9D-4DCD3B7D4E55';
const APP = '6CDF91AC-A064-4183-8EAE-5EDE4C8E5F66';
const SP = '8EF1B3CE-C286-43A5-A0C0-7A0A6EAA7B88';
const GRAPHSP = '9F02C4DF-D397-44B6-B1D1-8B1B7FBB8C99';
const DEV = 'A013D5E0-E4A8-45C7-82E2-9C2C80CC9DAA';
const GA = '62E90394-69F5-4237-9190-012177145E10';
const PRA = 'E8611AB8-C189-46E8-94E1-60213AB1F814';
const APPADM = '9B895D92-2CD3-44C7-9D02-A6AC2D5EA5C3';
const SUB = '/SUBSCRIPTIONS/B1B9D0EA-1A2C-4D2E-9A6F-3F1F2A7C9E01';
const RG = `${SUB}/RESOURCEGROUPS/PROD-RG`;
const MG = '/PROVIDERS/MICROSOFT.MANAGEMENT/MANAGEMENTGROUPS/CONTOSO-ROOT';
const MG2 = '/PROVIDERS/MICROSOFT.MANAGEMENT/MANAGEMENTGROUPS/CONTOSO-PROD';
const KV = `${RG}/PROVIDERS/MICROSOFT.KEYVAULT/VAULTS/PROD-KV`;
const VM = `${RG}/PROVIDERS/MICROSOFT.COMPUTE/VIRTUALMACHINES/WEB-01`;
const MI = 'B124E6F1-F5B9-46D8-93F3-AD3D91DD0EBB';
const UAMI = 'C235F702-06CA-47E9-A404-BE4EA2EE1FCC';

interface Out {
  nodes: Map<string, NodeInput>;
  edges: Map<string, EdgeInput>;
  unknown: Record<string, number>;
  byKind: Map<string, { nodes: NodeInput[]; edges: EdgeInput[] }>;
}

function convertFile(file: string): Out {
  const { data } = JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8'));
  const out: Out = { nodes: new Map(), edges: new Map(), unknown: {}, byKind: new Map() };
  for (const item of data) {
    const c = convertAzure(item, NOW);
    const kind = (item as { kind?: string }).kind ?? '?';
    const k = out.byKind.get(kind) ?? { nodes: [], edges: [] };
    out.byKind.set(kind, k);
    k.nodes.push(...c.nodes);
    k.edges.push(...c.edges);
    for (const n of c.nodes) {
      const seen = out.nodes.get(n.objectid);
      out.nodes.set(
        n.objectid,
        seen ? { ...n, kinds: [...new Set([...seen.kinds, ...n.kinds])], properties: { ...seen.properties, ...n.properties } } : n,
      );
    }
    for (const e of c.edges) out.edges.set(`${e.start} -[${e.kind}]-> ${e.end}`, e);
    if (c.unknownKind) out.unknown[c.unknownKind] = (out.unknown[c.unknownKind] ?? 0) + 1;
  }
  return out;
}

const edgesOf = (o: Out, kind: string) => (o.byKind.get(kind)?.edges ?? []).map((e) => `${e.start} -[${e.kind}]-> ${e.end}`).sort();

describe('AzureHound Entra ID records', () => {
  const o = convertFile('entra.json');

  it('converts every record of the file, none unknown except the contact member it cannot type', () => {
    expect(o.unknown).toEqual({ 'AZGroupMember (member of an unsupported type)': 1 });
  });

  it('AZTenant: a collected tenant node named by its display name', () => {
    expect(o.nodes.get(T)).toEqual({
      objectid: T,
      kinds: ['AZBase', 'AZTenant'],
      properties: { objectid: T, displayname: 'Contoso', name: 'CONTOSO', tenantid: T, collected: true, lastseen: NOW, lastcollected: NOW },
    });
  });

  it('AZUser: the properties analysis needs (onpremid, onpremsyncenabled, enabled, tenantid) and the on-prem user', () => {
    expect(o.nodes.get(U1)!.properties).toEqual({
      objectid: U1,
      name: 'ALICE@CONTOSO.COM',
      enabled: true,
      whencreated: '2023-04-12T09:15:27Z',
      displayname: 'Alice',
      title: 'Engineer',
      pwdlastset: '2024-01-02T03:04:05Z',
      email: 'alice@contoso.com',
      onpremid: 'S-1-5-21-1004336348-1177238915-682003330-1105',
      onpremsyncenabled: true,
      userprincipalname: 'alice@contoso.com',
      usertype: 'Member',
      tenantid: T,
      lastseen: NOW,
      lastcollected: NOW,
    });
    expect(o.nodes.get(U2)!.properties).toMatchObject({ onpremid: '', onpremsyncenabled: false, enabled: true });
    expect(o.nodes.get(U3)!.properties.enabled).toBe(false);
    // BloodHound creates the synced AD user; SyncedToADUser itself is analysis' work, not ingest's.
    expect(o.nodes.get('S-1-5-21-1004336348-1177238915-682003330-1105')).toEqual({
      objectid: 'S-1-5-21-1004336348-1177238915-682003330-1105',
      kinds: ['Base', 'User'],
      properties: { objectid: 'S-1-5-21-1004336348-1177238915-682003330-1105' },
    });
    expect(edgesOf(o, 'AZUser')).toEqual([`${T} -[AZContains]-> ${U1}`, `${T} -[AZContains]-> ${U2}`, `${T} -[AZContains]-> ${U3}`]);
    expect([...o.edges.values()].some((e) => e.kind === 'SyncedToADUser')).toBe(false);
  });

  it('AZGroup: role-assignable, synced groups with the on-prem group', () => {
    expect(o.nodes.get(G1)!.properties).toMatchObject({
      name: 'HELPDESK@CONTOSO.ONMICROSOFT.COM',
      description: 'Helpdesk admins',
      isassignabletorole: true,
      onpremid: 'S-1-5-21-1004336348-1177238915-682003330-2201',
      onpremsyncenabled: true,
      securityenabled: true,
      securityidentifier: 'S-1-12-1-1',
      whencreated: '2022-11-01T10:00:00Z',
      tenantid: T,
    });
    expect(o.nodes.get('S-1-5-21-1004336348-1177238915-682003330-2201')!.kinds).toEqual(['Base', 'Group']);
    expect(o.nodes.get(G2)!.properties).toMatchObject({ isassignabletorole: false, onpremsyncenabled: false, onpremid: '' });
  });

  it('AZApp and AZServicePrincipal: the app, the principal that runs as it, and the app of a foreign principal', () => {
    expect(o.nodes.get(APP)!.properties).toMatchObject({
      name: 'PAYROLL@CONTOSO.COM',
      appid: '6cdf91ac-a064-4183-8eae-5ede4c8e5f66',
      publisherdomain: 'contoso.com',
      signinaudience: 'AzureADMyOrg',
      whencreated: '2021-05-06T07:08:09Z',
      tenantid: T,
      lastcollected: NOW,
    });
    expect(o.nodes.get(SP)!.properties).toMatchObject({
      name: 'PAYROLL@CONTOSO.ONMICROSOFT.COM',
      enabled: true,
      appownerorganizationid: '6c12b0b0-b2cc-4a73-8252-0b94bfca2145',
      appdisplayname: 'Payroll',
      serviceprincipaltype: 'Application',
      tenantid: T,
    });
    // Microsoft Graph's principal: its application belongs to Microsoft's tenant, and is only referenced.
    expect(o.nodes.get('00000003-0000-0000-C000-000000000000')).toEqual({
      objectid: '00000003-0000-0000-C000-000000000000',
      kinds: ['AZBase', 'AZApp'],
      properties: {
        objectid: '00000003-0000-0000-C000-000000000000',
        displayname: 'Microsoft Graph',
        tenantid: 'F8CDEF31-A31E-4B4A-93E4-5F571E91255A',
        lastseen: NOW,
      },
    });
    expect(edgesOf(o, 'AZServicePrincipal')).toEqual(
      [
        `${APP} -[AZRunsAs]-> ${SP}`,
        `${T} -[AZContains]-> ${SP}`,
        `00000003-0000-0000-C000-000000000000 -[AZRunsAs]-> ${GRAPHSP}`,
        `${T} -[AZContains]-> ${GRAPHSP}`,
      ].sort(),
    );
  });

  it.each([
    [
      'AZDevice',
      DEV,
      {
        name: 'WKS-01@CONTOSO.ONMICROSOFT.COM',
        operatingsystem: 'Windows',
        operatingsystemversion: '10.0.22631',
        trusttype: 'AzureAd',
        deviceid: 'd1e2f3a4-0000-4000-8000-000000000001',
      },
    ],
    [
      'AZRole (as ROLEID@TENANT, with its template id)',
      `${GA}@${T}`,
      {
        name: 'GLOBAL ADMINISTRATOR@CONTOSO.ONMICROSOFT.COM',
        templateid: '62e90394-69f5-4237-9190-012177145e10',
        isbuiltin: true,
        enabled: true,
        tenantid: T,
      },
    ],
  ])('%s: the node and its properties', (_record, id, props) => {
    expect(o.nodes.get(id)!.properties).toMatchObject(props);
  });

  it('AZRole: the tenant contains its roles', () => {
    expect(edgesOf(o, 'AZRole')).toContain(`${T} -[AZContains]-> ${GA}@${T}`);
  });

  it('AZGroupMember: users, principals, devices and groups, with their kinds', () => {
    expect(edgesOf(o, 'AZGroupMember')).toEqual(
      [`${U1} -[AZMemberOf]-> ${G1}`, `${SP} -[AZMemberOf]-> ${G1}`, `${DEV} -[AZMemberOf]-> ${G1}`, `${G1} -[AZMemberOf]-> ${G2}`].sort(),
    );
    expect(o.edges.get(`${SP} -[AZMemberOf]-> ${G1}`)).toMatchObject({ startKind: 'AZServicePrincipal', endKind: 'AZGroup' });
  });

  it.each([
    ['AZGroupOwner', U2, G1],
    ['AZAppOwner', U2, APP],
    ['AZServicePrincipalOwner', GRAPHSP, SP],
    ['AZDeviceOwner', U3, DEV],
  ])('%s: owners become AZOwns', (kind, owner, owned) => {
    expect(edgesOf(o, kind)).toEqual([`${owner} -[AZOwns]-> ${owned}`]);
  });

  it('AZRoleAssignment: AZHasRole with its scope; a scoped application administrator controls the object', () => {
    expect(edgesOf(o, 'AZRoleAssignment')).toEqual(
      [
        `${U1} -[AZHasRole]-> ${GA}@${T}`,
        `${U3} -[AZAppAdmin]-> 7DE0A2BD-B175-4294-9FBF-6FEF5D9F6A77`,
        `${U2} -[AZHasRole]-> ${APPADM}@${T}`,
      ].sort(),
    );
    expect(o.edges.get(`${U1} -[AZHasRole]-> ${GA}@${T}`)!.properties).toEqual({ scope: T, lastseen: NOW });
  });

  it('AZAppRoleAssignment: only Microsoft Graph permissions held by service principals, dangerous ones as edges', () => {
    expect(edgesOf(o, 'AZAppRoleAssignment')).toEqual([`${SP} -[AZMGRoleManagement_ReadWrite_Directory]-> ${GRAPHSP}`]);
    const nodes = o.byKind.get('AZAppRoleAssignment')!.nodes.map((n) => [n.objectid, n.properties.displayname]);
    expect(nodes).toEqual([
      [SP, 'PAYROLL'],
      [GRAPHSP, 'MICROSOFT GRAPH'],
      [SP, 'PAYROLL'],
      [GRAPHSP, 'MICROSOFT GRAPH'],
    ]);
  });

  it('AZRoleEligibilityScheduleInstance: directory-wide eligibility becomes AZRoleEligible', () => {
    expect(edgesOf(o, 'AZRoleEligibilityScheduleInstance')).toEqual([`${U2} -[AZRoleEligible]-> ${PRA}@${T}`]);
  });

  it('AZRoleManagementPolicyAssignment: activation requirements on the role, approvers as AZRoleApprover', () => {
    expect(o.byKind.get('AZRoleManagementPolicyAssignment')!.nodes[0]!.properties).toEqual({
      objectid: `${GA}@${T}`,
      roledefinitionid: GA,
      tenantid: T,
      enduserassignmentrequiresapproval: true,
      enduserassignmentrequirescapauthenticationcontext: false,
      enduserassignmentuserapprovers: [U3],
      enduserassignmentgroupapprovers: [G2],
      enduserassignmentrequiresmfa: true,
      enduserassignmentrequiresjustification: true,
      enduserassignmentrequiresticketinformation: false,
      lastseen: NOW,
    });
    expect(edgesOf(o, 'AZRoleManagementPolicyAssignment')).toEqual(
      [
        `${U3} -[AZRoleApprover]-> ${GA}@${T}`,
        `${G2} -[AZRoleApprover]-> ${GA}@${T}`,
        `${PRA}@${T} -[AZRoleApprover]-> ${APPADM}@${T}`,
      ].sort(),
    );
    // The merged role keeps its directory properties and gains the policy's.
    expect(o.nodes.get(`${PRA}@${T}`)!.properties).toMatchObject({
      templateid: PRA.toLowerCase(),
      enduserassignmentrequiresticketinformation: true,
    });
  });

  it('AZFederatedIdentityCredential: a credential node that authenticates to its application', () => {
    expect(o.nodes.get('D4C3B2A1-0000-4000-8000-00000000F1C1')!.properties).toEqual({
      objectid: 'D4C3B2A1-0000-4000-8000-00000000F1C1',
      name: 'DEPLOY-MAIN',
      audiences: ['api://AzureADTokenExchange'],
      description: '',
      issuer: 'https://token.actions.githubusercontent.com',
      subject: 'repo:contoso/payroll:ref:refs/heads/main',
      lastseen: NOW,
    });
    expect(edgesOf(o, 'AZFederatedIdentityCredential')).toEqual([`D4C3B2A1-0000-4000-8000-00000000F1C1 -[AZAuthenticatesTo]-> ${APP}`]);
  });
});

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

describe('kinds and records AzureHound writes that are not converted, and bad records', () => {
  it('are counted per kind and reported, never thrown and never silent', () => {
    const o = convertFile('unknown-and-malformed.json');
    expect(o.unknown).toEqual(AZURE_UNKNOWN_KINDS);
    // The good record after the bad ones is converted.
    expect(o.nodes.has('E5E5E5E5-0000-4000-8000-000000000005')).toBe(true);
  });

  it.each([
    null,
    42,
    [],
    {},
    { kind: 7, data: {} },
    { kind: 'AZUser', data: [] },
    { kind: 'constructor', data: {} },
    { kind: '__proto__', data: {} },
  ])('never throws on %j', (item) => {
    const c = convertAzure(item, NOW);
    expect(c.nodes).toEqual([]);
    expect(c.unknownKind).toEqual(expect.any(String));
  });

  it.each(Object.keys(AZURE_CONVERTERS))('%s: wrongly shaped fields produce no crash', (kind) => {
    const hostile = {
      id: 5,
      tenantId: ['x'],
      owners: 'nope',
      members: [null, 1, { member: 'x' }],
      assignees: [{ assignee: null }],
      roleAssignments: {},
      fics: [null],
      identity: { userAssignedIdentities: [null, 'x'] },
      properties: null,
      permissions: { secrets: 'Get' },
      endUserAssignmentUserApprovers: 'x',
    };
    expect(() => convertAzure({ kind, data: hostile }, NOW)).not.toThrow();
  });
});
