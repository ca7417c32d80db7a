import fs from 'node:fs';
import path from 'node:path';
import { useTestApp } from '../helpers/app';
import { AZUREHOUND } from '../helpers/fixtures';
import { answerOf } from '../helpers/prebuilt';
import { ingestAsAdmin } from '../helpers/upload';

const FILE = path.join(AZUREHOUND, 'entra.json');
const items = JSON.parse(fs.readFileSync(FILE, 'utf8')).data as { kind: string; data: Record<string, any> }[];
const of = (kind: string) => items.filter((i) => i.kind === kind).map((i) => i.data);
const [tenant] = of('AZTenant');
const TENANT = String(tenant!.tenantId).toUpperCase();
const roleId = (templateId: string) => `${templateId}@${TENANT}`.toUpperCase();
const GLOBAL_ADMIN = '62e90394-69f5-4237-9190-012177145e10';
const PRIVILEGED_ROLE_ADMIN = 'e8611ab8-c189-46e8-94e1-60213ab1f814';
/** Microsoft Graph's RoleManagement.ReadWrite.Directory app role: its holder can grant itself any Entra role. */
const ROLE_MANAGEMENT_READWRITE = '9e3f62cf-ca93-4989-b6ce-bf83c28f9fe8';
const sorted = (xs: string[]) => [...new Set(xs.map((x) => x.toUpperCase()))].sort();

/**
 * The Entra pre-built queries on a small AzureHound collection (azurehound/entra.json), ingested and analysed by
 * the service; each expected answer is read from the collection (role assignments, eligibility, app role
 * assignments) as BloodHound's Azure semantics define them.
 */
describe('pre-built Azure queries on an AzureHound collection', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await ingestAsAdmin(t, [FILE]);
  });
  const assignments = of('AZRoleAssignment').flatMap((d) => d.roleAssignments as Record<string, string>[]);

  it('Global Administrators: tenant-wide holders of the role, to the tenant', async () => {
    const holders = assignments.filter((a) => a.roleDefinitionId === GLOBAL_ADMIN && a.directoryScopeId === '/').map((a) => a.principalId!);
    expect(holders).toHaveLength(1);
    expect(await answerOf(t, 'az-global-admins')).toEqual(sorted([...holders, TENANT]));
  });

  it('members of high privileged roles: holders of the roles the regex names (Application Administrator is not one)', async () => {
    const named = new Set([GLOBAL_ADMIN, PRIVILEGED_ROLE_ADMIN]);
    const held = assignments.filter((a) => named.has(a.roleDefinitionId!));
    expect(await answerOf(t, 'az-privileged-role-members')).toEqual(
      sorted(held.flatMap((a) => [a.principalId!, roleId(a.roleDefinitionId!)])),
    );
  });

  it('role eligibility: a user eligible tenant-wide for Privileged Role Administrator', async () => {
    const tenantWide = of('AZRoleEligibilityScheduleInstance').filter((e) => e.directoryScopeId === '/');
    const answer = await answerOf(t, 'az-role-eligible-direct');
    expect(answer).toEqual(expect.arrayContaining(sorted(tenantWide.flatMap((e) => [e.principalId, roleId(e.roleDefinitionId)]))));
  });

  it('service principals with dangerous Microsoft Graph app roles (users holding one are not service principals)', async () => {
    const sps = new Set(of('AZServicePrincipal').map((s) => s.id));
    const dangerous = of('AZAppRoleAssignment').filter((a) => a.appRoleId === ROLE_MANAGEMENT_READWRITE && sps.has(a.principalId));
    expect(dangerous).toHaveLength(1);
    expect(await answerOf(t, 'az-mg-dangerous-app-roles')).toEqual(sorted(dangerous.flatMap((a) => [a.principalId, a.resourceId])));
    // BloodHound's AZMGGrantAppRoles: a service principal holding AppRoleAssignment.ReadWrite.All or
    // RoleManagement.ReadWrite.Directory can grant any app role in the tenant
    expect(await answerOf(t, 'az-mg-grant-app-roles')).toEqual(sorted([...dangerous.map((a) => a.principalId), TENANT]));
  });
});
