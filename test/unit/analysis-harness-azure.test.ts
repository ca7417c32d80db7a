import { runAnalysis } from '../../src/analysis/run';
import { ROLE } from '../../src/analysis/steps/azure/kinds';
import { TIER_ZERO_KIND } from '../../src/graph/kinds';
import { AzureGraph, edgesByName } from '../helpers/azure-graph';
import { useGraphDb } from '../helpers/graph';

/**
 * Azure Tier Zero after BloodHound's selector expansion (cmd/api/src/daemons/datapipe/agt.go, fetchChildNodes and
 * fetchAzureParentNodes): a selected role makes its holders tier zero (AZHasRole or AZRoleEligible, one hop), a
 * tier-zero Entra group its nested members, a tier-zero service principal the app it runs as.
 */
describe('Azure Tier Zero expansion and harnesses', () => {
  const g = useGraphDb();

  it('holders of a Tier Zero role, members of a holding group and the app of a holding service principal', async () => {
    const az = new AzureGraph();
    // AzureHound names a role `<template id>@<tenant id>`, which is what BloodHound's role selectors match.
    const ga = az.loose(`${ROLE.globalAdmin.toUpperCase()}@${az.tenantId}`, 'GA', ['AZBase', 'AZRole'], { templateid: ROLE.globalAdmin });
    az.edge(az.tenant, ga, 'AZContains');
    const reader = az.role('Reader', ROLE.directoryReaders);
    const alice = az.user('alice');
    const eligible = az.user('eligible');
    const admins = az.group('admins', { isassignabletorole: true });
    const inner = az.group('inner');
    const nested = az.user('nested');
    const sp = az.sp('sp');
    const app = az.app('app');
    const readerUser = az.user('readerUser');
    az.hasRole(alice, ga).hasRole(admins, ga).hasRole(sp, ga).edge(eligible, ga, 'AZRoleEligible');
    az.memberOf(inner, admins).memberOf(nested, inner);
    az.edge(app, sp, 'AZRunsAs');
    az.hasRole(readerUser, reader); // not a Tier Zero role
    await az.save(g.store());
    await runAnalysis(g.store());
    const tagged: string[] = [];
    for (const n of az.nodes) {
      const stored = await g.store().nodeByObjectId(n.objectid);
      if (stored?.kinds.includes(TIER_ZERO_KIND)) tagged.push(String(stored.properties.name));
    }
    expect(tagged.sort()).toEqual(['CONTOSO.TEST', 'GA', 'admins', 'alice', 'app', 'eligible', 'inner', 'nested', 'sp'].sort());
  });
  it('AZAddSecretHarness: Application and Cloud Application Administrators to every app and service principal', async () => {
    await g.db().query('delete from graph_edges; delete from graph_nodes');
    const az = new AzureGraph();
    az.role('AppAdminRole', ROLE.applicationAdmin);
    az.role('CloudAppAdminRole', ROLE.cloudApplicationAdmin);
    az.app('AZApp');
    az.sp('AZServicePrincipal');
    await az.save(g.store());
    await runAnalysis(g.store());
    expect(await edgesByName(g.store(), ['AZAddSecret'])).toEqual([
      'AppAdminRole -AZAddSecret-> AZApp',
      'AppAdminRole -AZAddSecret-> AZServicePrincipal',
      'CloudAppAdminRole -AZAddSecret-> AZApp',
      'CloudAppAdminRole -AZAddSecret-> AZServicePrincipal',
    ]);
  });
});
