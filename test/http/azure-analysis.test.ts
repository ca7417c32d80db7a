import { apiToken, useTestApp } from '../helpers/app';
import { sharphound, uploadJob } from '../helpers/upload';

// An Entra tenant as AzureHound writes it, plus the AD user one Entra user is synced from (SharpHound).
const TENANT = '6C12B0B0-B2CC-4A73-8252-0B94BFCA2145';
const SID = 'S-1-5-21-4-4-4-1105';
const GA = '62e90394-69f5-4237-9190-012177145e10';
const HELPDESK = '729827e3-9c14-49f7-bb1b-9608f156bbb8';
const t = TENANT.toLowerCase();
const item = (kind: string, data: Record<string, unknown>) => ({ kind, data: { tenantId: t, tenantName: 'CONTOSO.TEST', ...data } });
const user = (id: string, upn: string, extra: Record<string, unknown> = {}) =>
  item('AZUser', { id, userPrincipalName: upn, displayName: upn, accountEnabled: true, ...extra });
const role = (templateId: string, displayName: string) => item('AZRole', { id: templateId, templateId, displayName, isBuiltIn: true });

const AZURE = JSON.stringify({
  meta: { type: 'azure', version: 5, count: 0 },
  data: [
    item('AZTenant', { tenantId: t, displayName: 'CONTOSO.TEST', collected: true }),
    user('aaaaaaaa-0000-0000-0000-000000000001', 'admin@contoso.test'),
    user('aaaaaaaa-0000-0000-0000-000000000002', 'synced@contoso.test', { onPremisesSecurityIdentifier: SID, onPremisesSyncEnabled: true }),
    item('AZGroup', { id: 'bbbbbbbb-0000-0000-0000-000000000001', displayName: 'Open', isAssignableToRole: false, securityEnabled: true }),
    item('AZDevice', { id: 'cccccccc-0000-0000-0000-000000000001', displayName: 'PC1', operatingSystem: 'Windows' }),
    role(GA, 'Global Administrator'),
    role(HELPDESK, 'Helpdesk Administrator'),
    item('AZRoleAssignment', {
      roleDefinitionId: GA,
      roleAssignments: [{ principalId: 'aaaaaaaa-0000-0000-0000-000000000001', roleDefinitionId: GA, directoryScopeId: '/' }],
    }),
  ],
});
const AD_USERS = sharphound('users', [
  { ObjectIdentifier: SID, Properties: { name: 'SYNCED@CORP.TEST', domain: 'CORP.TEST', domainsid: 'S-1-5-21-4-4-4' }, Aces: [] },
]);

describe('Azure analysis after an AzureHound upload', () => {
  const app = useTestApp();

  it('derives role, reset-password, group and hybrid edges from the collected properties', async () => {
    await uploadJob(app.app, await apiToken(app.app, app.adminJwt), [
      ['azurehound.json', AZURE],
      ['users.json', AD_USERS],
    ]);
    await app.services.datapipe.drain();
    const store = app.infra.graphStore;
    const kinds = ['AZGlobalAdmin', 'AZResetPassword', 'AZAddMembers', 'SyncedToADUser', 'SyncedToEntraUser'];
    const edges = await store.edgesOfKinds(kinds);
    const nodes = new Map(
      (await store.nodesByIds([...new Set(edges.flatMap((e) => [e.startId, e.endId]))])).map((n) => [n.id, String(n.properties.name)]),
    );
    const got = edges.map((e) => `${nodes.get(e.startId)} ${e.kind} ${nodes.get(e.endId)}`).sort();
    expect(got).toEqual(
      [
        'ADMIN@CONTOSO.TEST AZGlobalAdmin CONTOSO.TEST',
        'ADMIN@CONTOSO.TEST AZAddMembers OPEN@CONTOSO.TEST',
        'GLOBAL ADMINISTRATOR@CONTOSO.TEST AZResetPassword ADMIN@CONTOSO.TEST',
        'GLOBAL ADMINISTRATOR@CONTOSO.TEST AZResetPassword SYNCED@CONTOSO.TEST',
        // Helpdesk resets users without roles, not the Global Administrator
        'HELPDESK ADMINISTRATOR@CONTOSO.TEST AZResetPassword SYNCED@CONTOSO.TEST',
        'SYNCED@CONTOSO.TEST SyncedToADUser SYNCED@CORP.TEST',
        'SYNCED@CORP.TEST SyncedToEntraUser SYNCED@CONTOSO.TEST',
      ].sort(),
    );
  });
});
