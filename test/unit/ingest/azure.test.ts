import { AZURE_CONVERTERS, convertAzure } from '../../../src/ingest/azure';
import { AZURE_UNKNOWN_KINDS } from '../../helpers/fixtures';
import { NOW, T, U1, U2, U3, G1, G2, APP, SP, GRAPHSP, DEV, GA, PRA, APPADM, convertFile, edgesOf } from './azure-records';

/**
 * The AzureHound converters, record kind by record kind, on realistic AzureHound output (test/fixtures/azurehound):
 * the nodes, properties and edges BloodHound's ein/azure.go writes for the same Entra ID records, and what they do
 * with records they cannot convert. Resource Manager records: azure-resources.test.ts.
 */
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
