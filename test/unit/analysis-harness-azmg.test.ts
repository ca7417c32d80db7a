import { runAnalysis } from '../../src/analysis/run';
import { RAW } from '../../src/analysis/steps/azure/kinds';
import { AzureGraph, edgesByName } from '../helpers/azure-graph';
import { useGraphDb } from '../helpers/graph';

const AZMG = ['AZMGAddMember', 'AZMGAddOwner', 'AZMGAddSecret', 'AZMGGrantAppRoles', 'AZMGGrantRole'];

/**
 * BloodHound's Microsoft Graph app-role harnesses (AZMG*.json beside cmd/api/src/test/integration/harnesses.go) and
 * the assertions of packages/go/analysis/azure/post_test.go (TestAppRoleAssignments_*): a service principal granted
 * one abusable MS Graph permission on the Microsoft Graph service principal. Every scenario uses one tenant holding
 * all the targets the drawings use — the Microsoft Graph SP, another SP, an app, a role, a group and a
 * role-assignable group — so each permission also shows what it does not reach. The holder never gets an edge to
 * itself (the drawings draw none).
 */
describe('BloodHound AZMG harnesses', () => {
  const g = useGraphDb();

  const cases: [string, string, string[]][] = [
    [
      'AZMGApplicationReadWriteAll: add secrets and owners to every app and service principal',
      RAW.applicationReadWriteAll,
      ['App', 'MSGraph', 'OtherSP'].flatMap((t) => [`Holder -AZMGAddOwner-> ${t}`, `Holder -AZMGAddSecret-> ${t}`]),
    ],
    [
      'AZMGAppRoleAssignmentReadWriteAll: grant app roles, so the tenant',
      RAW.appRoleAssignmentReadWriteAll,
      ['Holder -AZMGGrantAppRoles-> CONTOSO.TEST'],
    ],
    [
      'AZMGDirectoryReadWriteAll: members and owners of groups that cannot hold roles',
      RAW.directoryReadWriteAll,
      ['Holder -AZMGAddMember-> Group', 'Holder -AZMGAddOwner-> Group'],
    ],
    [
      'AZMGGroupReadWriteAll: members and owners of groups that cannot hold roles',
      RAW.groupReadWriteAll,
      ['Holder -AZMGAddMember-> Group', 'Holder -AZMGAddOwner-> Group'],
    ],
    [
      'AZMGGroupMemberReadWriteAll: members only, of groups that cannot hold roles',
      RAW.groupMemberReadWriteAll,
      ['Holder -AZMGAddMember-> Group'],
    ],
    [
      // The drawing shows AZMGAddSecret to the group; BloodHound's rule (Part5) and post_test.go give AddMember and
      // AddOwner, to every group, role-assignable ones included.
      'AZMGRoleManagementReadWriteDirectory: app roles, every role, secrets and owners of apps and SPs, every group',
      RAW.roleManagementReadWriteDirectory,
      [
        'Holder -AZMGGrantAppRoles-> CONTOSO.TEST',
        'Holder -AZMGGrantRole-> Role',
        ...['App', 'MSGraph', 'OtherSP'].flatMap((t) => [`Holder -AZMGAddOwner-> ${t}`, `Holder -AZMGAddSecret-> ${t}`]),
        ...['Group', 'RoleGroup'].flatMap((t) => [`Holder -AZMGAddMember-> ${t}`, `Holder -AZMGAddOwner-> ${t}`]),
      ],
    ],
    [
      'AZMGServicePrincipalEndpointReadWriteAll: owners of every service principal',
      RAW.servicePrincipalEndpointReadWriteAll,
      ['Holder -AZMGAddOwner-> MSGraph', 'Holder -AZMGAddOwner-> OtherSP'],
    ],
  ];
  it.each(cases)('%s', async (_name, permission, expected) => {
    await g.db().query('delete from graph_edges; delete from graph_nodes');
    const az = new AzureGraph();
    const holder = az.sp('Holder');
    const graph = az.sp('MSGraph', { appid: '00000003-0000-0000-c000-000000000000' });
    az.sp('OtherSP');
    az.app('App');
    az.role('Role', 'test-role-template');
    az.group('Group', { isassignabletorole: false });
    az.group('RoleGroup', { isassignabletorole: true });
    az.edge(holder, graph, permission);
    await az.save(g.store());
    await runAnalysis(g.store());
    expect(await edgesByName(g.store(), AZMG)).toEqual([...expected].sort());
  });
});
