import { runAnalysis } from '../../src/analysis/run';
import { ROLE } from '../../src/analysis/steps/azure/kinds';
import { AzureGraph, edgesByName } from '../helpers/azure-graph';
import { useGraphDb } from '../helpers/graph';

/**
 * Azure post-processing rule by rule, on small tenants built in each test. What must and must not appear follows
 * BloodHound's integration harnesses and tests (packages/go/analysis/azure, cmd/api/src/test/integration/harnesses).
 */
describe('Azure analysis', () => {
  const g = useGraphDb();
  afterEach(() => g.db().query('delete from graph_edges; delete from graph_nodes'));

  const analyse = async (az: AzureGraph, ...kinds: string[]) => {
    await az.save(g.store());
    await runAnalysis(g.store());
    return edgesByName(g.store(), kinds);
  };

  it('AZGlobalAdmin, AZPrivilegedRoleAdmin, AZPrivilegedAuthAdmin: holders directly or through one role-assignable group', async () => {
    const az = new AzureGraph();
    const ga = az.role('GA', ROLE.globalAdmin);
    const pra = az.role('PRA', ROLE.privilegedRoleAdmin);
    const paa = az.role('PAA', ROLE.privilegedAuthAdmin);
    const alice = az.user('alice');
    const bob = az.user('bob');
    const carol = az.user('carol');
    const dave = az.user('dave');
    const sp = az.sp('sp');
    const admins = az.group('admins', { isassignabletorole: true });
    const plain = az.group('plain', { isassignabletorole: false });
    const nested = az.group('nested', { isassignabletorole: true });
    az.hasRole(alice, ga).hasRole(sp, pra).hasRole(admins, ga).hasRole(plain, paa);
    az.memberOf(bob, admins).memberOf(nested, admins).memberOf(carol, nested).memberOf(dave, plain);
    expect(await analyse(az, 'AZGlobalAdmin', 'AZPrivilegedRoleAdmin', 'AZPrivilegedAuthAdmin')).toEqual([
      'admins -AZGlobalAdmin-> CONTOSO.TEST',
      'alice -AZGlobalAdmin-> CONTOSO.TEST',
      'bob -AZGlobalAdmin-> CONTOSO.TEST',
      'plain -AZPrivilegedAuthAdmin-> CONTOSO.TEST', // the group holds the role; its members do not inherit it
      'sp -AZPrivilegedRoleAdmin-> CONTOSO.TEST',
    ]);
  });

  it('AZResetPassword: each role resets the users its scope allows, never members of role-assignable groups', async () => {
    const az = new AzureGraph();
    const ga = az.role('GA', ROLE.globalAdmin);
    const helpdesk = az.role('Helpdesk', ROLE.helpdeskAdmin);
    az.role('Tier1', ROLE.partnerTier1Support);
    const reader = az.role('Reader', ROLE.directoryReaders);
    const security = az.role('Security', '194ae4cb-b126-40b2-bd5b-6091b380977d');
    const admin = az.user('admin');
    az.user('plainUser');
    const readerUser = az.user('readerUser');
    const secUser = az.user('secUser');
    const protectedUser = az.user('protectedUser');
    const protectedGroup = az.group('protected', { isassignabletorole: true });
    az.hasRole(admin, ga).hasRole(readerUser, reader).hasRole(secUser, security).memberOf(protectedUser, protectedGroup);
    az.hasRole(az.user('helper'), helpdesk);
    const edges = await analyse(az, 'AZResetPassword');
    const from = (role: string) => edges.filter((e) => e.startsWith(`${role} `)).map((e) => e.split('> ')[1]);
    expect(from('GA')).toEqual(['admin', 'helper', 'plainUser', 'protectedUser', 'readerUser', 'secUser']);
    // Helpdesk: users without roles, users holding only roles from its list (Directory Readers, Helpdesk itself).
    expect(from('Helpdesk')).toEqual(['helper', 'plainUser', 'readerUser']);
    expect(from('Tier1')).toEqual(['plainUser']);
    expect(from('Reader')).toEqual([]);
  });

  it('AZAddMembers: Global/Privileged Role Admins to every group, group-writing roles only to non-role-assignable groups', async () => {
    const az = new AzureGraph();
    const ga = az.role('GA', ROLE.globalAdmin);
    const groupsAdmin = az.role('GroupsAdmin', ROLE.groupsAdmin);
    az.group('open', { isassignabletorole: false });
    az.group('locked', { isassignabletorole: true });
    az.group('unknown'); // no isassignabletorole: BloodHound skips it for the limited roles
    const holderGroup = az.group('holders', { isassignabletorole: true });
    az.hasRole(az.user('root'), ga).hasRole(az.sp('robot'), groupsAdmin).hasRole(holderGroup, groupsAdmin);
    az.memberOf(az.user('member'), holderGroup);
    expect(await analyse(az, 'AZAddMembers')).toEqual([
      'member -AZAddMembers-> open',
      'robot -AZAddMembers-> open',
      'root -AZAddMembers-> holders',
      'root -AZAddMembers-> locked',
      'root -AZAddMembers-> open',
      'root -AZAddMembers-> unknown',
    ]);
  });

  it('AZAddSecret and AZAddOwner from application-administering roles to every app and service principal', async () => {
    const az = new AzureGraph();
    az.role('AppAdmin', ROLE.applicationAdmin);
    az.role('CloudAppAdmin', ROLE.cloudApplicationAdmin);
    az.role('HybridAdmin', ROLE.hybridIdentityAdmin);
    az.role('Tier1', ROLE.partnerTier1Support);
    az.role('Tier2', ROLE.partnerTier2Support);
    az.role('DirSync', ROLE.directorySyncAccounts);
    az.role('CAAdmin', 'b1be1c3e-b65d-4f19-8427-f6fa0d97feb9'); // Conditional Access Administrator: neither
    az.app('app');
    az.sp('sp');
    az.sp('mi', { serviceprincipaltype: 'ManagedIdentity' });
    const edges = await analyse(az, 'AZAddSecret', 'AZAddOwner');
    expect(edges.filter((e) => e.includes('AZAddSecret'))).toEqual([
      'AppAdmin -AZAddSecret-> app',
      'AppAdmin -AZAddSecret-> sp',
      'CloudAppAdmin -AZAddSecret-> app',
      'CloudAppAdmin -AZAddSecret-> sp',
    ]);
    const owners = edges.filter((e) => e.includes('AZAddOwner'));
    expect(owners).toHaveLength(12);
    expect(new Set(owners.map((e) => e.split(' ')[0]))).toEqual(new Set(['HybridAdmin', 'Tier1', 'Tier2', 'DirSync']));
  });

  it('AZExecuteCommand: Intune Administrators to Windows devices only', async () => {
    const az = new AzureGraph();
    const intune = az.role('Intune', ROLE.intuneAdmin);
    az.device('win', 'Windows 11 Enterprise');
    az.device('mac', 'MacMDM');
    const admins = az.group('admins', { isassignabletorole: true });
    az.hasRole(az.user('alice'), intune).hasRole(admins, intune).memberOf(az.user('bob'), admins);
    expect(await analyse(az, 'AZExecuteCommand')).toEqual([
      'admins -AZExecuteCommand-> win',
      'alice -AZExecuteCommand-> win',
      'bob -AZExecuteCommand-> win',
    ]);
  });

  describe('MS Graph app roles (AZMG*)', () => {
    /** A tenant with the MS Graph SP, one app, one role, groups of each kind, and `attacker` holding `permission`. */
    const tenantWith = (permission: string) => {
      const az = new AzureGraph();
      const graph = az.sp('msgraph');
      az.app('app');
      az.role('Role', ROLE.globalAdmin);
      az.group('open', { isassignabletorole: false });
      az.group('locked', { isassignabletorole: true });
      // The permission holder may live in another tenant: only the MS Graph SP must be contained.
      const attacker = az.loose('OTHER-ATTACKER', 'attacker', ['AZBase', 'AZServicePrincipal']);
      az.edge(attacker, graph, permission);
      return az;
    };
    const MG = ['AZMGAddSecret', 'AZMGAddOwner', 'AZMGAddMember', 'AZMGGrantAppRoles', 'AZMGGrantRole'];

    const OPEN_GROUP = ['attacker -AZMGAddMember-> open', 'attacker -AZMGAddOwner-> open'];
    it.each<[string, string, string[]]>([
      [
        'AZMGApplication_ReadWrite_All',
        'add secrets and owners to every app and service principal',
        [
          'attacker -AZMGAddOwner-> app',
          'attacker -AZMGAddOwner-> msgraph',
          'attacker -AZMGAddSecret-> app',
          'attacker -AZMGAddSecret-> msgraph',
        ],
      ],
      ['AZMGAppRoleAssignment_ReadWrite_All', 'grant app roles on the tenant', ['attacker -AZMGGrantAppRoles-> CONTOSO.TEST']],
      ['AZMGDirectory_ReadWrite_All', 'members and owners of non-role-assignable groups', OPEN_GROUP],
      ['AZMGGroup_ReadWrite_All', 'members and owners of non-role-assignable groups', OPEN_GROUP],
      ['AZMGGroupMember_ReadWrite_All', 'members of non-role-assignable groups', ['attacker -AZMGAddMember-> open']],
      [
        'AZMGRoleManagement_ReadWrite_Directory',
        'roles, app roles, every app, SP and group',
        [
          'attacker -AZMGAddMember-> locked',
          'attacker -AZMGAddMember-> open',
          'attacker -AZMGAddOwner-> app',
          'attacker -AZMGAddOwner-> locked',
          'attacker -AZMGAddOwner-> msgraph',
          'attacker -AZMGAddOwner-> open',
          'attacker -AZMGAddSecret-> app',
          'attacker -AZMGAddSecret-> msgraph',
          'attacker -AZMGGrantAppRoles-> CONTOSO.TEST',
          'attacker -AZMGGrantRole-> Role',
        ],
      ],
      ['AZMGServicePrincipalEndpoint_ReadWrite_All', 'owners of service principals', ['attacker -AZMGAddOwner-> msgraph']],
    ])('%s: %s', async (permission, _what, expected) => {
      expect(await analyse(tenantWith(permission), ...MG)).toEqual(expected);
    });

    it('a permission on a service principal outside every tenant grants nothing', async () => {
      const az = new AzureGraph();
      const stray = az.loose('STRAY-GRAPH', 'stray', ['AZBase', 'AZServicePrincipal']);
      az.edge(az.sp('attacker'), stray, 'AZMGRoleManagement_ReadWrite_Directory');
      az.group('open', { isassignabletorole: false });
      expect(await analyse(az, ...MG)).toEqual([]);
    });
  });

  it('AZRoleApprover: listed users and groups, or Global and Privileged Role Administrators when none are listed', async () => {
    const az = new AzureGraph();
    const ga = az.role('Global Administrator', ROLE.globalAdmin);
    az.role('Privileged Role Administrator', ROLE.privilegedRoleAdmin);
    az.role('Reader', ROLE.directoryReaders);
    const approverUser = az.user('approver');
    const approverGroup = az.group('approvers');
    const listed = {
      enduserassignmentrequiresapproval: true,
      enduserassignmentuserapprovers: [approverUser.objectid.toLowerCase(), 'NOT-IN-GRAPH'],
      enduserassignmentgroupapprovers: [approverGroup.objectid],
    };
    az.role('PIMListed', ROLE.helpdeskAdmin, listed);
    az.role('PIMDefault', ROLE.userAdmin, {
      enduserassignmentrequiresapproval: true,
      enduserassignmentuserapprovers: [],
      enduserassignmentgroupapprovers: [],
    });
    az.role('NoApproval', ROLE.passwordAdmin, { ...listed, enduserassignmentrequiresapproval: false });
    az.role('NoPolicy', ROLE.groupsAdmin, { enduserassignmentrequiresapproval: true });
    az.role('OtherTenant', ROLE.intuneAdmin, { ...listed, tenantid: 'TENANT-2' });
    expect(await analyse(az, 'AZRoleApprover')).toEqual([
      'Global Administrator -AZRoleApprover-> PIMDefault',
      'Privileged Role Administrator -AZRoleApprover-> PIMDefault',
      'approver -AZRoleApprover-> PIMListed',
      'approvers -AZRoleApprover-> PIMListed',
    ]);
    expect(ga.name).toBe('Global Administrator');
  });

  describe('hybrid users (SyncedToEntraUser / SyncedToADUser)', () => {
    const SID = 'S-1-5-21-1-2-3-1105';
    const hybrid = (azProps: Record<string, unknown>, adKinds: string[] | null = ['Base', 'User']) => {
      const az = new AzureGraph();
      az.user('entra', azProps);
      if (adKinds) az.loose(SID, 'aduser', adKinds, { tenantid: undefined, domainsid: 'S-1-5-21-1-2-3' });
      return az;
    };
    const KINDS = ['SyncedToEntraUser', 'SyncedToADUser'];

    it('links an Entra user with sync enabled to the AD user with its onpremid, both ways', async () => {
      expect(await analyse(hybrid({ onpremsyncenabled: true, onpremid: SID }), ...KINDS)).toEqual([
        'aduser -SyncedToEntraUser-> entra',
        'entra -SyncedToADUser-> aduser',
      ]);
    });

    it.each([
      ['sync disabled', { onpremsyncenabled: false, onpremid: SID }, ['Base', 'User']],
      ['no onpremid', { onpremsyncenabled: true }, ['Base', 'User']],
      ['an onpremid of another user', { onpremsyncenabled: true, onpremid: 'S-1-5-21-1-2-3-9999' }, ['Base', 'User']],
      ['the object id is not an AD user', { onpremsyncenabled: true, onpremid: SID }, ['Base', 'Computer']],
    ])('draws nothing when %s', async (_, props, kinds) => {
      expect(await analyse(hybrid(props, kinds), ...KINDS)).toEqual([]);
    });

    it('creates no AD user when none exists', async () => {
      expect(await analyse(hybrid({ onpremsyncenabled: true, onpremid: SID }, null), ...KINDS)).toEqual([]);
      expect(await g.store().nodeByObjectId(SID)).toBeUndefined();
    });

    it('removes a SyncedToADUser written at ingest when the rule does not hold', async () => {
      const az = hybrid({ onpremsyncenabled: false, onpremid: SID });
      az.edge({ objectid: `${az.tenantId}-ENTRA`, name: 'entra' }, { objectid: SID, name: 'aduser' }, 'SyncedToADUser');
      await az.save(g.store());
      expect(await edgesByName(g.store(), KINDS)).toEqual(['entra -SyncedToADUser-> aduser']);
      await runAnalysis(g.store());
      expect(await edgesByName(g.store(), KINDS)).toEqual([]);
    });
  });

  it('names management groups DISPLAYNAME@TENANT', async () => {
    const az = new AzureGraph();
    az.loose('/PROVIDERS/MICROSOFT.MANAGEMENT/MANAGEMENTGROUPS/ROOT', 'root', ['AZBase', 'AZManagementGroup'], {
      displayname: 'Tenant Root Group',
    });
    await az.save(g.store());
    await runAnalysis(g.store());
    const mg = await g.store().nodeByObjectId('/PROVIDERS/MICROSOFT.MANAGEMENT/MANAGEMENTGROUPS/ROOT');
    expect(mg?.properties.name).toBe('TENANT ROOT GROUP@CONTOSO.TEST');
  });

  it('is idempotent, and derived edges of a removed input disappear on the next run', async () => {
    const az = new AzureGraph();
    const ga = az.role('GA', ROLE.globalAdmin);
    const alice = az.user('alice');
    az.user('bob');
    az.hasRole(alice, ga);
    const kinds = ['AZGlobalAdmin', 'AZResetPassword', 'AZAddMembers'];
    const first = await analyse(az, ...kinds);
    expect(first).toContain('alice -AZGlobalAdmin-> CONTOSO.TEST');
    await runAnalysis(g.store());
    expect(await edgesByName(g.store(), kinds)).toEqual(first);
    await g.db().query(`delete from graph_edges where kind_id = (select id from graph_kinds where name = 'AZHasRole')`);
    await runAnalysis(g.store());
    expect(await edgesByName(g.store(), kinds)).toEqual(['GA -AZResetPassword-> alice', 'GA -AZResetPassword-> bob']);
  });
});
