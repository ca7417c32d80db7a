import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateAzureHound } from '../../src/generate/azurehound';
import { generateSharpHound } from '../../src/generate/sharphound';
import { isTier } from '../../src/generate/tiers';
import { copyText } from '../../src/graph/pg/bulk';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'gas-gen-'));

describe('gas generate', () => {
  it('is deterministic for a seed and writes data before meta, with the true count', () => {
    const [a, b, c] = [tmp(), tmp(), tmp()];
    try {
      const ga = generateSharpHound(a, { users: 30, seed: 3 });
      generateSharpHound(b, { users: 30, seed: 3 });
      generateSharpHound(c, { users: 30, seed: 4 });
      generateAzureHound(a, { users: 20, seed: 3 });
      generateAzureHound(b, { users: 20, seed: 3 });
      for (const f of fs.readdirSync(a)) expect(fs.readFileSync(path.join(a, f), 'utf8')).toEqual(fs.readFileSync(path.join(b, f), 'utf8'));
      expect(fs.readFileSync(path.join(c, 'users.json'), 'utf8')).not.toEqual(fs.readFileSync(path.join(a, 'users.json'), 'utf8'));
      const users = fs.readFileSync(path.join(a, 'users.json'), 'utf8');
      expect(users.indexOf('"data"')).toBeLessThan(users.indexOf('"meta"'));
      expect(JSON.parse(users).meta).toEqual({ methods: 46067, type: 'users', count: 30, version: 6 });
      expect(ga.files.map((f) => path.basename(f))).toEqual(
        expect.arrayContaining(['domains.json', 'groups.json', 'computers.json', 'enterprisecas.json', 'certtemplates.json']),
      );
      const domain = JSON.parse(fs.readFileSync(path.join(a, 'domains.json'), 'utf8')).data[0];
      expect(domain.Trusts).toHaveLength(2);
      const az = JSON.parse(fs.readFileSync(path.join(a, 'azurehound.json'), 'utf8'));
      expect(az.meta).toMatchObject({ type: 'azure', count: az.data.length });
      expect(new Set(az.data.map((d: { kind: string }) => d.kind))).toEqual(
        new Set([
          'AZTenant',
          'AZUser',
          'AZGroup',
          'AZApp',
          'AZServicePrincipal',
          'AZDevice',
          'AZGroupMember',
          'AZRole',
          'AZRoleAssignment',
        ]),
      );
    } finally {
      for (const d of [a, b, c]) fs.rmSync(d, { recursive: true, force: true });
    }
  });

  it('knows its tiers and nothing else', () => {
    expect(['S', 'M', 'L'].every(isTier)).toBe(true);
    expect(isTier('XL')).toBe(false);
    expect(isTier('constructor')).toBe(false);
  });
});

describe('COPY text encoding', () => {
  it('escapes what would break a row and leaves the rest alone', () => {
    expect(copyText('plain')).toBe('plain');
    expect(copyText('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyText('\\N')).toBe('\\\\N');
  });
});
