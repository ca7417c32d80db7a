import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collectionRank, fileType, inCollectionOrder, typeFromName } from '../../src/ingest/collection-order';

describe('collection order', () => {
  it('ranks users, computers and groups first, every other or unknown type after them', () => {
    expect(['users', 'Computers', 'GROUPS', 'domains', 'azure', undefined].map(collectionRank)).toEqual([0, 1, 2, 3, 3, 3]);
  });

  it("reads the type SharpHound's file names carry, and nothing from other names", () => {
    expect(typeFromName('20240101120000_users.json')).toBe('users');
    expect(typeFromName('/x/y/Computers.JSON')).toBe('computers');
    expect(typeFromName('TESTLAB-groups.json')).toBe('groups');
    expect(typeFromName('nested/20240101_groups.json')).toBe('groups');
    expect(typeFromName('superusers.json')).toBeUndefined();
    expect(typeFromName('users.json.gz')).toBeUndefined();
    expect(typeFromName('ous.json')).toBeUndefined();
  });

  it("takes a data-first file's type from its meta before its name, and the name when the meta is not at the end", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-order-'));
    try {
      const dataFirst = path.join(dir, 'users.json');
      fs.writeFileSync(dataFirst, JSON.stringify({ data: [], meta: { type: 'groups', count: 0, version: 6 } }));
      const metaFirst = path.join(dir, 'upload-7.json');
      fs.writeFileSync(metaFirst, JSON.stringify({ meta: { type: 'computers', count: 0, version: 6 }, data: [] }));
      expect(fileType(dataFirst)).toBe('groups');
      expect(fileType(metaFirst)).toBeUndefined();
      expect(fileType(metaFirst, 'x_computers.json')).toBe('computers');
      expect(fileType(path.join(dir, 'gone_users.json'))).toBe('users');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('orders stably: items of one rank keep the order given', () => {
    const given = ['ous', 'groups', 'domains', 'users', 'gpos', 'computers', 'users', 'containers'].map((type, at) => ({ type, at }));
    expect(inCollectionOrder(given, (f) => f.type).map((f) => `${f.type}${f.at}`)).toEqual([
      'users3',
      'users6',
      'computers5',
      'groups1',
      'ous0',
      'domains2',
      'gpos4',
      'containers7',
    ]);
    expect(given[0]).toEqual({ type: 'ous', at: 0 }); // the input is left as it was
  });
});
