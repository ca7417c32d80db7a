import fs from 'node:fs';
import path from 'node:path';

/**
 * A deterministic generator of SharpHound v6 collection files for one domain, in the proportions of BloodHound's
 * DBCreator: as many computers as users, a fifth as many groups, 10 % of groups nested, local administrators and
 * remote-management members per computer, sessions, ACEs between principals, OUs and GPOs. Files are written as
 * streams, so any size can be produced. The same options always give the same files.
 */
export interface GenerateOptions {
  users: number;
  seed?: number;
  /** ACEs per user object (the main lever on file size). @default 8 */
  acesPerObject?: number;
  domain?: string;
  domainSid?: string;
}

export interface GeneratedFiles {
  files: string[];
  bytes: number;
  objects: number;
}

/** A small deterministic PRNG (mulberry32): generated data and property tests are reproducible from a seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RIGHTS = ['GenericAll', 'GenericWrite', 'WriteDacl', 'WriteOwner', 'AllExtendedRights', 'ForceChangePassword', 'AddMember'];

/** Writes `{meta, data: [...]}` one object at a time. */
class JsonArrayWriter {
  private readonly fd: number;
  private first = true;
  bytes = 0;
  constructor(file: string, type: string) {
    this.fd = fs.openSync(file, 'w');
    this.write(`{"meta":{"methods":46067,"type":"${type}","count":0,"version":6},"data":[\n`);
  }
  add(o: unknown): void {
    this.write((this.first ? '' : ',\n') + JSON.stringify(o));
    this.first = false;
  }
  close(): void {
    this.write('\n]}\n');
    fs.closeSync(this.fd);
  }
  private write(s: string): void {
    this.bytes += fs.writeSync(this.fd, s);
  }
}

export function generateSharpHound(dir: string, opts: GenerateOptions): GeneratedFiles {
  fs.mkdirSync(dir, { recursive: true });
  const r = rng(opts.seed ?? 1);
  const pick = (n: number) => Math.floor(r() * n);
  const domain = (opts.domain ?? 'GENERATED.LOCAL').toUpperCase();
  const sid = opts.domainSid ?? 'S-1-5-21-1000000001-2000000002-3000000003';
  const users = opts.users;
  const computers = users;
  const groups = Math.max(5, Math.floor(users / 5));
  const ous = Math.max(2, Math.floor(users / 500));
  const gpos = Math.max(2, Math.floor(ous / 2));
  const aces = opts.acesPerObject ?? 8;
  const userSid = (i: number) => `${sid}-${100000 + i}`;
  const computerSid = (i: number) => `${sid}-${500000 + i}`;
  const groupSid = (i: number) => `${sid}-${900000 + i}`;
  const ouGuid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const gpoGuid = (i: number) => `11111111-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const principal = () =>
    r() < 0.7
      ? { PrincipalSID: groupSid(pick(groups)), PrincipalType: 'Group' }
      : { PrincipalSID: userSid(pick(users)), PrincipalType: 'User' };
  const acl = (n: number) =>
    Array.from({ length: n }, () => ({
      ...principal(),
      RightName: RIGHTS[pick(RIGHTS.length)],
      IsInherited: r() < 0.5,
      InheritanceHash: '',
    }));
  const props = (name: string, extra: Record<string, unknown> = {}) => ({
    name: `${name}@${domain}`,
    domain,
    domainsid: sid,
    distinguishedname: `CN=${name},OU=GENERATED,DC=${domain.split('.').join(',DC=')}`,
    description: `generated object ${name}`,
    whencreated: 1600000000 + pick(100000000),
    ...extra,
  });
  const out: GeneratedFiles = { files: [], bytes: 0, objects: 0 };
  const file = (type: string, fill: (w: JsonArrayWriter) => void) => {
    const f = path.join(dir, `${type}.json`);
    const w = new JsonArrayWriter(f, type);
    fill(w);
    w.close();
    out.files.push(f);
    out.bytes += w.bytes;
  };

  file('domains', (w) => {
    w.add({
      ObjectIdentifier: sid,
      Properties: { name: domain, domain, domainsid: sid, collected: true, functionallevel: '2016' },
      Links: Array.from({ length: Math.min(gpos, 2) }, (_, i) => ({ IsEnforced: i === 0, GUID: gpoGuid(i) })),
      ChildObjects: Array.from({ length: ous }, (_, i) => ({ ObjectIdentifier: ouGuid(i), ObjectType: 'OU' })),
      Trusts: [],
      Aces: [{ PrincipalSID: `${sid}-512`, PrincipalType: 'Group', RightName: 'GenericAll', IsInherited: false }, ...acl(2)],
    });
    out.objects++;
  });
  file('ous', (w) => {
    for (let i = 0; i < ous; i++) {
      w.add({
        ObjectIdentifier: ouGuid(i),
        Properties: props(`OU${i}`, { blocksinheritance: r() < 0.1 }),
        Links: [{ IsEnforced: false, GUID: gpoGuid(pick(gpos)) }],
        Aces: acl(2),
      });
      out.objects++;
    }
  });
  file('gpos', (w) => {
    for (let i = 0; i < gpos; i++) {
      w.add({ ObjectIdentifier: gpoGuid(i), Properties: props(`GPO${i}`), Aces: acl(3) });
      out.objects++;
    }
  });
  file('groups', (w) => {
    w.add({
      ObjectIdentifier: `${sid}-512`,
      Properties: props('DOMAIN ADMINS'),
      Members: [{ ObjectIdentifier: userSid(0), ObjectType: 'User' }],
      Aces: acl(2),
    });
    w.add({ ObjectIdentifier: `${sid}-513`, Properties: props('DOMAIN USERS'), Members: [], Aces: [] });
    for (let i = 0; i < groups; i++) {
      const members = Array.from({ length: 2 + pick(12) }, () => ({ ObjectIdentifier: userSid(pick(users)), ObjectType: 'User' }));
      if (r() < 0.1) members.push({ ObjectIdentifier: groupSid(pick(groups)), ObjectType: 'Group' });
      w.add({ ObjectIdentifier: groupSid(i), Properties: props(`GROUP${i}`), Members: members, Aces: acl(3) });
      out.objects++;
    }
  });
  file('users', (w) => {
    for (let i = 0; i < users; i++) {
      w.add({
        ObjectIdentifier: userSid(i),
        Properties: props(`USER${i}`, {
          enabled: r() < 0.9,
          hasspn: r() < 0.05,
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
      out.objects++;
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
        Sessions: { Collected: true, Results: Array.from({ length: pick(3) }, () => ({ UserSID: userSid(pick(users)), ComputerSID: c })) },
        LocalGroups: [
          {
            Collected: true,
            Name: `ADMINISTRATORS@COMPUTER${i}`,
            ObjectIdentifier: `${c}-544`,
            Results: [{ ObjectIdentifier: groupSid(pick(groups)), ObjectType: 'Group' }],
          },
          {
            Collected: true,
            Name: `REMOTE MANAGEMENT USERS@COMPUTER${i}`,
            ObjectIdentifier: `${c}-580`,
            Results: r() < 0.3 ? [{ ObjectIdentifier: groupSid(pick(groups)), ObjectType: 'Group' }] : [],
          },
        ],
        Aces: acl(3),
      });
      out.objects++;
    }
  });
  return out;
}
