import { createTestDb, type TestDb } from '../helpers/db';
import { analyse, type SmallGraph } from './analysis-graph';

/**
 * BloodHound's AD integration harnesses (cmd/api/src/test/integration/harnesses/*.json) translated node for node.
 * The cross-product harnesses test CalculateCrossProductNodeSets on two sets; here the sets are the GetChanges and
 * GetChangesAll holders of a domain, so the answer shows as DCSync edges.
 */
const D = 'S-1-5-21-9-9-9';
const domain = (): SmallGraph => ({ nodes: [[D, 'Domain', { domainsid: D, collected: true, name: 'HARNESS.LOCAL' }]], edges: [] });
const merge = (...parts: SmallGraph[]): SmallGraph => ({ nodes: parts.flatMap((p) => p.nodes), edges: parts.flatMap((p) => p.edges) });
const groups = (...names: string[]): SmallGraph['nodes'] => names.map((n) => [n, 'Group', { domainsid: D }]);

describe('BloodHound AD harnesses', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.drop());

  it('ShortcutHarness: a group in both sets stands for its members; a member reached only through it gets nothing', async () => {
    const g = merge(domain(), {
      nodes: [...groups('Group1', 'Group2', 'Group3', 'Group4'), ['User1', 'User', { domainsid: D }]],
      edges: [
        ['Group4', 'MemberOf', 'Group1'],
        ['Group3', 'MemberOf', 'Group2'],
        ['Group3', 'MemberOf', 'Group1'],
        ['User1', 'MemberOf', 'Group4'],
        ['User1', 'MemberOf', 'Group3'],
        ['Group1', 'GetChanges', D], // nodeset 1
        ['Group2', 'GetChangesAll', D], // nodeset 2
      ],
    });
    expect(await analyse(t.db, g, ['DCSync'])).toEqual([`Group3 DCSync ${D}`]);
  });

  it('cross product with Authenticated Users in one set: the other set, first degree, is the answer', async () => {
    const AU = 'HARNESS.LOCAL-S-1-5-11';
    const g = merge(domain(), {
      nodes: [...groups('Group1', 'Group2', 'Group3', AU), ['User1', 'User', { domainsid: D }]],
      edges: [
        ['User1', 'MemberOf', 'Group1'],
        ['Group3', 'MemberOf', 'Group1'],
        [AU, 'MemberOf', 'Group2'],
        ['Group1', 'GetChanges', D],
        ['Group2', 'GetChangesAll', D],
      ],
    });
    expect(await analyse(t.db, g, ['DCSync'])).toEqual([`Group1 DCSync ${D}`]);
  });
});
