import { runAnalysis } from '../../src/analysis/run';
import { ingestPath } from '../../src/ingest/ingest-path';
import { useGraphDb } from '../helpers/graph';
import { TESTLAB_FILES } from '../helpers/fixtures';

/**
 * BloodHound's own assertions on this fixture set (cmd/api/src/test/fixtures/fixtures/expected_ingest.go): after
 * ingest and analysis of the v6 TESTLAB files these relationships and properties exist (the assertions are
 * restated here as data). One is adapted, see below and docs/decisions.md.
 */
const D = 'S-1-5-21-3130019616-2776909439-2417379446';
type Row = [startKind: string, start: string, kind: string, endKind: string, end: string, props?: Record<string, unknown>];
// The objects most rows name (TESTLAB's names for them).
const [WIN10, DFM, DOMAIN_ADMINS, ENTERPRISE_ADMINS, DCSYNC_USER] = ['1104', '1105', '512', '519', '2122'].map((rid) => `${D}-${rid}`);
const ADMINISTRATORS = 'TESTLAB.LOCAL-S-1-5-32-544';
const DEFAULT_POLICY = 'BE91688F-1333-45DF-93E4-4D2E8A36DE2B'; // DEFAULT DOMAIN POLICY
const TESTOU = '2A374493-816A-4193-BEFD-D2F4132C6DCA';
const COMPUTERS = 'AB616901-D423-4B9A-B68F-D24CEE1E36EF'; // the Computers container
const RELATIONSHIPS: Row[] = [
  // domains
  ['GPO', DEFAULT_POLICY, 'GPLink', 'Domain', D],
  ['Group', ADMINISTRATORS, 'Owns', 'Domain', D],
  ['User', DCSYNC_USER, 'DCSync', 'Domain', D],
  ['User', DCSYNC_USER, 'GetChanges', 'Domain', D],
  ['User', DCSYNC_USER, 'GetChangesAll', 'Domain', D],
  // BloodHound asserts (…2873)-[TrustedBy]->(TESTLAB): a domain and an edge kind of its v5 fixture, absent from the
  // v6 files; the v6 counterpart (an inbound ParentChild trust) is checked with the kind BloodHound writes today.
  ['Domain', 'S-1-5-21-3084884204-958224920-2707782875', 'SameForestTrust', 'Domain', D],
  ['Domain', D, 'Contains', 'Container', COMPUTERS],
  // containers
  ['Group', DOMAIN_ADMINS, 'Owns', 'Container', COMPUTERS],
  ['Container', COMPUTERS, 'Contains', 'Computer', `${D}-2120`],
  // computers
  ['User', DFM, 'AdminTo', 'Computer', WIN10],
  ['Group', `${D}-513`, 'CanRDP', 'Computer', WIN10],
  ['User', DFM, 'CanPSRemote', 'Computer', WIN10],
  ['Group', 'TESTLAB.LOCAL-S-1-1-0', 'ExecuteDCOM', 'Computer', WIN10],
  ['Group', 'TESTLAB.LOCAL-S-1-5-32-548', 'GenericAll', 'Computer', WIN10],
  ['Computer', WIN10, 'AllowedToDelegate', 'Computer', `${D}-12345`],
  ['Computer', `${D}-12345`, 'AllowedToAct', 'Computer', WIN10],
  ['Computer', WIN10, 'HasSIDHistory', 'User', `${D}-12344`],
  ['Computer', WIN10, 'HasSession', 'User', `${D}-1107`],
  ['Computer', WIN10, 'HasSession', 'User', `${D}-1108`],
  ['Computer', `${D}-2120`, 'CoerceToTGT', 'Domain', D],
  ['Computer', `${D}-1001`, 'DCFor', 'Domain', D], // the v6-only assertion
  // GPOs
  ['Group', DOMAIN_ADMINS, 'GenericWrite', 'GPO', DEFAULT_POLICY],
  ['Group', ENTERPRISE_ADMINS, 'WriteDacl', 'GPO', DEFAULT_POLICY],
  ['Group', ENTERPRISE_ADMINS, 'WriteOwner', 'GPO', DEFAULT_POLICY],
  // groups
  ['User', `${D}-500`, 'MemberOf', 'Group', ADMINISTRATORS],
  ['Group', DOMAIN_ADMINS, 'Owns', 'Group', ADMINISTRATORS],
  // OUs
  ['GPO', 'C45E9585-4932-4C03-91A8-1856869D49AF', 'GPLink', 'OU', TESTOU],
  ['OU', TESTOU, 'Contains', 'Computer', WIN10],
  ['Group', DOMAIN_ADMINS, 'GenericAll', 'OU', TESTOU],
  // users
  ['Group', ADMINISTRATORS, 'AllExtendedRights', 'User', DFM],
  ['User', DFM, 'AllowedToDelegate', 'Computer', `${D}-12345`],
  ['User', DFM, 'HasSIDHistory', 'User', `${D}-12344`],
  ['User', DFM, 'SQLAdmin', 'Computer', `${D}-12345`],
  ['Group', ADMINISTRATORS, 'AllExtendedRights', 'User', `${D}-1106`],
  ['User', `${D}-2125`, 'CoerceToTGT', 'Domain', D],
  // sessions
  ['Computer', WIN10, 'HasSession', 'User', `${D}-2117`, { logontype: 2 }],
];
const PROPERTIES: [objectid: string, property: string, value: unknown][] = [
  ['TESTLAB.LOCAL-S-1-5-32-550', 'name', 'PRINT OPERATORS@TESTLAB.LOCAL'],
  [`${D}-521`, 'name', 'READ-ONLY DOMAIN CONTROLLERS@TESTLAB.LOCAL'],
];

describe("BloodHound's expected-ingest assertions (v6 TESTLAB)", () => {
  const g = useGraphDb();
  beforeAll(async () => {
    for (const f of TESTLAB_FILES) expect((await ingestPath(g.store(), f)).errors).toEqual([]);
    await runAnalysis(g.store());
  });

  // Rows padded to six values: jest takes a callback with more parameters than values for a `done`-style test.
  it.each(RELATIONSHIPS.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5] ?? null] as const))(
    '(%s %s)-[%s]->(%s %s)',
    async (startKind, start, kind, endKind, end, props) => {
      const rows = await g.db().query<{ properties: Record<string, unknown> }>(
        `select e.properties from graph_edges e
       join graph_nodes s on s.id = e.start_id join graph_nodes t on t.id = e.end_id join graph_kinds k on k.id = e.kind_id
       where s.objectid = $1 and t.objectid = $2 and k.name = any($3::text[])
         and exists (select 1 from graph_kinds sk where sk.id = any(s.kind_ids) and sk.name = $4)
         and exists (select 1 from graph_kinds tk where tk.id = any(t.kind_ids) and tk.name = $5)`,
        [start, end, kind.split('|'), startKind, endKind],
      );
      expect(rows.length).toBeGreaterThan(0);
      if (props) expect(rows[0]!.properties).toMatchObject(props);
    },
  );

  it.each(PROPERTIES)('%s has %s = %j', async (objectid, property, value) => {
    const rows = await g
      .db()
      .query<{ v: unknown }>('select properties -> $2::text as v from graph_nodes where objectid = $1', [objectid, property]);
    expect(rows[0]?.v).toEqual(value);
  });
});
