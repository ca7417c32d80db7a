import fs from 'node:fs';
import path from 'node:path';
import { JsonArrayWriter, rng, type GenerateProgress } from './json-writer.js';
import type { GeneratedFiles } from './sharphound.js';

export interface AzureGenerateOptions {
  /** Entra users; groups, service principals, apps and devices follow in fixed proportions. */
  users: number;
  seed?: number;
  /** On-premises domain SID of synced users (half of them), matching the SharpHound generator's domain. */
  domainSid?: string;
  metaFirst?: boolean;
  progress?: GenerateProgress;
}

const ROLES: [string, string][] = [
  ['62e90394-69f5-4237-9190-012177145e10', 'Global Administrator'],
  ['e8611ab8-c189-46e8-94e1-60213ab1f814', 'Privileged Role Administrator'],
  ['9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3', 'Application Administrator'],
  ['fe930be7-5e62-47db-91af-98c3a49a38b1', 'User Administrator'],
  ['729827e3-9c14-49f7-bb1b-9608f156bbb8', 'Helpdesk Administrator'],
  ['158c047a-c907-4556-b7ef-446551a6b5f7', 'Cloud Application Administrator'],
];

/** A deterministic UUID-shaped id: kind prefix and a counter. */
const uid = (prefix: number, i: number) => `${prefix.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** About how many records generateAzureHound writes: users, groups, service principals with their apps, devices (not the tenant, roles and links). */
export function plannedAzureHoundObjects(users: number): number {
  return users + Math.max(5, Math.floor(users / 10)) + 2 * Math.max(2, Math.floor(users / 20)) + Math.max(1, Math.floor(users / 2));
}

/**
 * One AzureHound file for a tenant (`{"data":[…],"meta":{"type":"azure",…}}`): users (half synced from AD), groups
 * (a fifth role-assignable), group memberships skewed to a few large groups, service principals with their apps,
 * devices, built-in roles and their assignments. Deterministic for a seed.
 */
export function generateAzureHound(dir: string, opts: AzureGenerateOptions): GeneratedFiles {
  fs.mkdirSync(dir, { recursive: true });
  const r = rng((opts.seed ?? 1) ^ 0x5eed);
  const pick = (n: number) => Math.floor(r() * n);
  const skewed = (n: number) => Math.floor(n * r() ** 3);
  const tenantId = uid(0x7e4a47, 1);
  const tenantName = 'generated.onmicrosoft.com';
  const sid = opts.domainSid ?? 'S-1-5-21-1000000001-2000000002-3000000003';
  const users = opts.users;
  const groups = Math.max(5, Math.floor(users / 10));
  const sps = Math.max(2, Math.floor(users / 20));
  const devices = Math.max(1, Math.floor(users / 2));
  const user = (i: number) => uid(0x10, i);
  const group = (i: number) => uid(0x20, i);
  const sp = (i: number) => uid(0x30, i);
  const app = (i: number) => uid(0x40, i);
  const device = (i: number) => uid(0x50, i);
  const common = { tenantId, tenantName };
  const file = path.join(dir, 'azurehound.json');
  const planned = plannedAzureHoundObjects(users);
  const onCount = opts.progress && ((n: number) => opts.progress!({ file, objects: n, planned }));
  const w = new JsonArrayWriter(file, { type: 'azure', version: 5, count: 0 }, opts.metaFirst, onCount);
  const add = (kind: string, data: Record<string, unknown>) => w.add({ kind, data });

  add('AZTenant', {
    collected: true,
    defaultDomain: tenantName,
    displayName: 'Generated',
    id: `/tenants/${tenantId}`,
    tenantId,
    tenantType: 'AAD',
  });
  for (let i = 0; i < users; i++) {
    const synced = i % 2 === 0;
    add('AZUser', {
      ...common,
      accountEnabled: r() < 0.95,
      displayName: `User ${i}`,
      id: user(i),
      userPrincipalName: `user${i}@generated.example`,
      userType: 'Member',
      ...(synced ? { onPremisesSyncEnabled: true, onPremisesSecurityIdentifier: `${sid}-${100000 + i}` } : {}),
    });
  }
  for (let i = 0; i < groups; i++) {
    add('AZGroup', {
      ...common,
      displayName: `Group ${i}`,
      id: group(i),
      isAssignableToRole: i % 5 === 0,
      securityEnabled: true,
      securityIdentifier: `S-1-12-1-${i}`,
    });
  }
  for (let i = 0; i < sps; i++) {
    add('AZApp', { ...common, appId: uid(0x60, i), displayName: `App ${i}`, id: app(i), signInAudience: 'AzureADMyOrg' });
    add('AZServicePrincipal', {
      ...common,
      accountEnabled: true,
      appId: uid(0x60, i),
      appDisplayName: `App ${i}`,
      appOwnerOrganizationId: tenantId,
      displayName: `App ${i}`,
      id: sp(i),
      servicePrincipalType: 'Application',
    });
  }
  for (let i = 0; i < devices; i++)
    add('AZDevice', {
      ...common,
      deviceId: uid(0x51, i),
      displayName: `WKS-${i}`,
      id: device(i),
      operatingSystem: 'Windows',
      trustType: 'AzureAd',
    });
  // About three memberships per user, most of them in a few large groups.
  const members = new Map<number, Set<string>>();
  for (let m = 0; m < users * 3; m++) {
    const g = skewed(groups);
    let s = members.get(g);
    if (!s) members.set(g, (s = new Set()));
    s.add(r() < 0.95 ? `u${pick(users)}` : `s${pick(sps)}`);
  }
  for (const [g, set] of [...members.entries()].sort((a, b) => a[0] - b[0])) {
    add('AZGroupMember', {
      groupId: group(g),
      members: [...set].map((m) => ({
        groupId: group(g),
        member:
          m[0] === 'u'
            ? { '@odata.type': '#microsoft.graph.user', id: user(Number(m.slice(1))) }
            : { '@odata.type': '#microsoft.graph.servicePrincipal', id: sp(Number(m.slice(1))) },
      })),
    });
  }
  ROLES.forEach(([id, name], k) => {
    add('AZRole', { ...common, displayName: name, id, isBuiltIn: true, isEnabled: true, templateId: id });
    const holders = Array.from({ length: 3 + pick(20) }, (_, j) => {
      const x = r();
      const principalId =
        x < 0.6 ? user(pick(users)) : x < 0.8 ? group(Math.min(groups - 1, 5 * pick(Math.ceil(groups / 5)))) : sp(pick(sps));
      return { id: `ra-${k}-${j}`, roleDefinitionId: id, principalId, directoryScopeId: '/' };
    });
    add('AZRoleAssignment', { roleAssignments: holders, roleDefinitionId: id, tenantId });
  });
  const objects = w.close();
  return { files: [file], bytes: w.bytes, objects };
}
