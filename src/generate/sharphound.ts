import path from 'node:path';
import fs from 'node:fs';
import { generateAdcs } from './adcs.js';
import { JsonArrayWriter, rng, type GenerateProgress } from './json-writer.js';

export { rng } from './json-writer.js';

/**
 * A deterministic generator of SharpHound v6 collection files for one domain, in the proportions of BloodHound's
 * DBCreator: as many computers as users, a fifth as many groups, nested groups, local administrators and
 * remote-management members per computer, sessions, trusts, OUs with GPO links, ADCS objects, and ACEs whose
 * principals are skewed towards a few hubs (Domain Admins, Account Operators, a handful of large groups), as in
 * real directories. Files are written as streams (any size), `data` before `meta` like the real collector. The same
 * options always give the same files.
 */
export interface GenerateOptions {
  users: number;
  seed?: number;
  /** ACEs per user and computer object (the main lever on edge count). @default 8 */
  acesPerObject?: number;
  domain?: string;
  domainSid?: string;
  /** Write `meta` before `data` (older collectors); the real SharpHound v6 writes it last. @default false */
  metaFirst?: boolean;
  progress?: GenerateProgress;
}

export interface GeneratedFiles {
  files: string[];
  bytes: number;
  objects: number;
}

const RIGHTS = ['GenericAll', 'GenericWrite', 'WriteDacl', 'WriteOwner', 'AllExtendedRights', 'ForceChangePassword', 'AddMember'];
/** Principals that hold rights over almost everything in a real domain (by RID / well-known SID). */
const HUB_RIDS = ['512', '519', '518', '548', '550', '551'];

/** How many of each main object a domain of `users` users gets. */
function sharpHoundSizes(users: number) {
  const ous = Math.max(2, Math.floor(users / 500));
  return { users, computers: users, groups: Math.max(5, Math.floor(users / 5)), ous, gpos: Math.max(2, Math.floor(ous / 2)) };
}

/** About how many objects generateSharpHound writes: the domain, its OUs, GPOs, groups, users and computers (not the dozen ADCS objects). */
export function plannedSharpHoundObjects(users: number): number {
  const n = sharpHoundSizes(users);
  return 1 + n.ous + n.gpos + n.groups + n.users + n.computers;
}

export function generateSharpHound(dir: string, opts: GenerateOptions): GeneratedFiles {
  fs.mkdirSync(dir, { recursive: true });
  const r = rng(opts.seed ?? 1);
  const pick = (n: number) => Math.floor(r() * n);
  /** Index skewed towards 0 (a power law): a few groups hold most rights and most members. */
  const skewed = (n: number) => Math.floor(n * r() ** 3);
  const domain = (opts.domain ?? 'GENERATED.LOCAL').toUpperCase();
  const sid = opts.domainSid ?? 'S-1-5-21-1000000001-2000000002-3000000003';
  const { users, computers, groups, ous, gpos } = sharpHoundSizes(opts.users);
  const aces = opts.acesPerObject ?? 8;
  const userSid = (i: number) => `${sid}-${100000 + i}`;
  const computerSid = (i: number) => `${sid}-${500000 + i}`;
  const groupSid = (i: number) => `${sid}-${900000 + i}`;
  const hubSid = (rid: string) =>
    rid.length === 3 && rid.startsWith('5') && Number(rid) >= 544 && Number(rid) < 560 ? `${domain}-S-1-5-32-${rid}` : `${sid}-${rid}`;
  const ouGuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const gpoGuid = (i: number) => `11111111-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const principal = () => {
    const x = r();
    if (x < 0.35) return { PrincipalSID: hubSid(HUB_RIDS[skewed(HUB_RIDS.length)]!), PrincipalType: 'Group' };
    if (x < 0.9) return { PrincipalSID: groupSid(skewed(groups)), PrincipalType: 'Group' };
    return { PrincipalSID: userSid(pick(users)), PrincipalType: 'User' };
  };
  const acl = (n: number) =>
    Array.from({ length: n }, () => ({
      ...principal(),
      RightName: RIGHTS[pick(RIGHTS.length)],
      IsInherited: r() < 0.7,
      InheritanceHash: '',
    }));
  const dc = `DC=${domain.split('.').join(',DC=')}`;
  const props = (name: string, extra: Record<string, unknown> = {}) => ({
    name: `${name}@${domain}`,
    domain,
    domainsid: sid,
    distinguishedname: `CN=${name},OU=GENERATED,${dc}`,
    description: `generated object ${name}`,
    whencreated: 1600000000 + pick(100000000),
    ...extra,
  });
  const out: GeneratedFiles = { files: [], bytes: 0, objects: 0 };
  const planned = plannedSharpHoundObjects(users);
  const file = (type: string, fill: (w: JsonArrayWriter) => void) => {
    const f = path.join(dir, `${type}.json`);
    const onCount = opts.progress && ((n: number) => opts.progress!({ file: f, objects: out.objects + n, planned }));
    const w = new JsonArrayWriter(f, { methods: 46067, type, count: 0, version: 6 }, opts.metaFirst, onCount);
    fill(w);
    out.objects += w.close();
    out.files.push(f);
    out.bytes += w.bytes;
  };

  file('domains', (w) => {
    w.add({
      ObjectIdentifier: sid,
      Properties: { name: domain, domain, domainsid: sid, distinguishedname: dc, collected: true, functionallevel: '2016' },
      Links: Array.from({ length: Math.min(gpos, 2) }, (_, i) => ({ IsEnforced: i === 0, GUID: gpoGuid(i) })),
      ChildObjects: Array.from({ length: ous }, (_, i) => ({ ObjectIdentifier: ouGuid(i), ObjectType: 'OU' })),
      Trusts: [
        {
          TargetDomainSid: 'S-1-5-21-1000000001-2000000002-4000000004',
          TargetDomainName: `CHILD.${domain}`,
          IsTransitive: true,
          SidFilteringEnabled: false,
          TrustDirection: 'Bidirectional',
          TrustType: 'ParentChild',
          TrustAttributes: 32,
        },
        {
          TargetDomainSid: 'S-1-5-21-1000000001-2000000002-5000000005',
          TargetDomainName: 'PARTNER.EXAMPLE',
          IsTransitive: true,
          SidFilteringEnabled: true,
          TrustDirection: 'Outbound',
          TrustType: 'Forest',
          TrustAttributes: 8,
        },
      ],
      Aces: [{ PrincipalSID: `${sid}-512`, PrincipalType: 'Group', RightName: 'GenericAll', IsInherited: false }, ...acl(2)],
    });
  });
  file('ous', (w) => {
    for (let i = 0; i < ous; i++) {
      w.add({
        ObjectIdentifier: ouGuid(i),
        Properties: props(`OU${i}`, { blocksinheritance: r() < 0.1 }),
        Links: [{ IsEnforced: r() < 0.1, GUID: gpoGuid(pick(gpos)) }],
        Aces: acl(4),
      });
    }
  });
  file('gpos', (w) => {
    for (let i = 0; i < gpos; i++) w.add({ ObjectIdentifier: gpoGuid(i), Properties: props(`GPO${i}`), Aces: acl(4) });
  });
  file('groups', (w) => {
    w.add({
      ObjectIdentifier: `${sid}-512`,
      Properties: props('DOMAIN ADMINS', { admincount: true }),
      Members: Array.from({ length: 5 }, (_, i) => ({ ObjectIdentifier: userSid(i), ObjectType: 'User' })),
      Aces: acl(2),
    });
    w.add({ ObjectIdentifier: `${sid}-513`, Properties: props('DOMAIN USERS'), Members: [], Aces: [] });
    w.add({ ObjectIdentifier: `${sid}-515`, Properties: props('DOMAIN COMPUTERS'), Members: [], Aces: [] });
    for (let i = 0; i < groups; i++) {
      // Memberships are skewed too: large groups first. About four groups per user overall.
      const size = 2 + pick(14) + (i < groups / 50 ? pick(200) : 0);
      const members = Array.from({ length: size }, () => ({ ObjectIdentifier: userSid(pick(users)), ObjectType: 'User' }));
      if (r() < 0.3) members.push({ ObjectIdentifier: groupSid(pick(groups)), ObjectType: 'Group' }); // nesting
      if (r() < 0.2) members.push({ ObjectIdentifier: computerSid(pick(computers)), ObjectType: 'Computer' });
      w.add({ ObjectIdentifier: groupSid(i), Properties: props(`GROUP${i}`), Members: members, Aces: acl(6) });
    }
  });
  file('users', (w) => {
    for (let i = 0; i < users; i++) {
      w.add({
        ObjectIdentifier: userSid(i),
        Properties: props(`USER${i}`, {
          enabled: r() < 0.9,
          hasspn: r() < 0.05,
          dontreqpreauth: r() < 0.01,
          pwdlastset: 1600000000 + pick(1e8),
          serviceprincipalnames: [],
        }),
        PrimaryGroupSID: `${sid}-513`,
        AllowedToDelegate: [],
        HasSIDHistory: [],
        SPNTargets: [],
        ContainedBy: { ObjectIdentifier: ouGuid(pick(ous)), ObjectType: 'OU' },
        Aces: acl(aces),
        IsDeleted: false,
        IsACLProtected: false,
      });
    }
  });
  file('computers', (w) => {
    for (let i = 0; i < computers; i++) {
      const c = computerSid(i);
      w.add({
        ObjectIdentifier: c,
        Properties: props(`COMPUTER${i}.${domain}`, { operatingsystem: 'Windows Server 2022', enabled: true, haslaps: r() < 0.5 }),
        PrimaryGroupSID: `${sid}-515`,
        ContainedBy: { ObjectIdentifier: ouGuid(pick(ous)), ObjectType: 'OU' },
        Sessions: { Collected: true, Results: Array.from({ length: pick(4) }, () => ({ UserSID: userSid(pick(users)), ComputerSID: c })) },
        LocalGroups: [
          {
            Collected: true,
            Name: `ADMINISTRATORS@COMPUTER${i}`,
            ObjectIdentifier: `${c}-544`,
            Results: [
              { ObjectIdentifier: `${sid}-512`, ObjectType: 'Group' },
              { ObjectIdentifier: groupSid(skewed(groups)), ObjectType: 'Group' },
            ],
          },
          {
            Collected: true,
            Name: `REMOTE DESKTOP USERS@COMPUTER${i}`,
            ObjectIdentifier: `${c}-555`,
            Results: r() < 0.3 ? [{ ObjectIdentifier: groupSid(skewed(groups)), ObjectType: 'Group' }] : [],
          },
          {
            Collected: true,
            Name: `REMOTE MANAGEMENT USERS@COMPUTER${i}`,
            ObjectIdentifier: `${c}-580`,
            Results: r() < 0.3 ? [{ ObjectIdentifier: groupSid(pick(groups)), ObjectType: 'Group' }] : [],
          },
        ],
        Aces: acl(aces),
      });
    }
  });
  generateAdcs({ file, r, sid, domain, dc, computerSid: computerSid(0), groupSid: groupSid(0), acl });
  return out;
}
