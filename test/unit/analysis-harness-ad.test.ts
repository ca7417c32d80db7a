import { inDomain, merge, useAnalysis, type SmallGraph } from './analysis-graph';

/**
 * BloodHound's AD integration harnesses (cmd/api/src/test/integration/harnesses/*.json) translated node for node.
 * The cross-product harnesses test CalculateCrossProductNodeSets on two sets; here the sets are the GetChanges and
 * GetChangesAll holders of a domain, so the answer shows as DCSync edges.
 */
const D = 'S-1-5-21-9-9-9';
const domain = (): SmallGraph => ({ nodes: [[D, 'Domain', { domainsid: D, collected: true, name: 'HARNESS.LOCAL' }]], edges: [] });
const { users, groups } = inDomain(D);
/** A cross-product harness: Group1 is nodeset 1 (GetChanges), Group2 nodeset 2 (GetChangesAll), over `members`. */
const crossProduct = (nodes: SmallGraph['nodes'], members: string[]): SmallGraph =>
  merge(domain(), { nodes, edges: [...members, `Group1 GetChanges ${D}`, `Group2 GetChangesAll ${D}`] });

describe('BloodHound AD harnesses', () => {
  const { analyse } = useAnalysis();

  it('ShortcutHarness: a group in both sets stands for its members; a member reached only through it gets nothing', async () => {
    const g = crossProduct(
      [...groups('Group1', 'Group2', 'Group3', 'Group4'), ...users('User1')],
      ['Group4 MemberOf Group1', 'Group3 MemberOf Group2', 'Group3 MemberOf Group1', 'User1 MemberOf Group4', 'User1 MemberOf Group3'],
    );
    expect(await analyse(g, ['DCSync'])).toEqual([`Group3 DCSync ${D}`]);
  });

  it('cross product with Authenticated Users in one set: the other set, first degree, is the answer', async () => {
    const AU = 'HARNESS.LOCAL-S-1-5-11';
    const g = crossProduct(
      [...groups('Group1', 'Group2', 'Group3', AU), ...users('User1')],
      ['User1 MemberOf Group1', 'Group3 MemberOf Group1', `${AU} MemberOf Group2`],
    );
    expect(await analyse(g, ['DCSync'])).toEqual([`Group1 DCSync ${D}`]);
  });
  it('CoerceAndRelayNTLMToSMB harness: unsigned targets with an unprotected computer admin, per domain', async () => {
    const D1 = 'S-1-2-3-4';
    const D2 = 'S-1-2-3-6';
    // The drawing leaves out what BloodHound's unprotected-computer cache needs of a relayer (its domain SID and
    // restrictoutboundntlm = false); relayers get them here. AdminTo is derived, so it comes from local -544 groups.
    const relayer = (domainsid: string, extra: Record<string, unknown> = {}) => ({ domainsid, restrictoutboundntlm: false, ...extra });
    const computers: [string, Record<string, unknown>][] = [
      ['Computer1', relayer(D1)],
      ['Computer2', { domainsid: D1, smbsigning: false }],
      ['Computer3', relayer(D2)],
      ['Computer4', { domainsid: D2, smbsigning: true }],
      ['Computer5', { domainsid: D2 }],
      ['Computer6', { domainsid: D2, smbsigning: false }],
      ['Computer7', relayer(D2)],
      ['Computer8', relayer(D2)],
      ['Computer9', { domainsid: D2, smbsigning: false }],
      ['Computer10', relayer(D2, { restrictoutboundntlm: true })],
    ];
    const admins: [string, string][] = [
      ['Computer1', 'Computer2'],
      ['Computer7', 'Computer4'],
      ['Computer7', 'Computer5'],
      ['Group5', 'Computer6'],
      ['Group8', 'Computer9'],
      ['Computer10', 'Computer6'],
    ];
    const g: SmallGraph = {
      nodes: [
        ['Domain1', 'Domain', { domainsid: D1, functionallevel: '2008' }],
        ['Domain2', 'Domain', { domainsid: D2, functionallevel: '2016' }],
        ['DOMAIN1-S-1-5-11', 'Group', { domainsid: D1 }], // Group1
        ['DOMAIN2-S-1-5-11', 'Group', { domainsid: D2 }], // Group2
        ['DOMAIN1-S-1-5-10', 'Group', { domainsid: D1 }], // Group3
        [`${D1}-525`, 'Group', { domainsid: D1, name: 'PROTECTED USERS@DOMAIN1' }], // Group4
        ['Group5', 'Group', {}],
        [`${D2}-525`, 'Group', { domainsid: D2, name: 'PROTECTED USERS@DOMAIN2' }], // Group6
        ['Group7', 'Group', {}],
        ['Group8', 'Group', {}],
        ...computers.map(([n, p]): SmallGraph['nodes'][number] => [n, 'Computer', p]),
        ...[...new Set(admins.map(([, c]) => c))].map((c): SmallGraph['nodes'][number] => [`${c}-544`, 'Group', {}]),
      ],
      edges: [
        'Computer3 MemberOf Group5',
        `Group5 MemberOf ${D2}-525`,
        `Computer1 MemberOf ${D1}-525`, // protected, but Domain1 is at 2008: still relays
        'Computer8 MemberOf Group7',
        'Group7 MemberOf Group8',
        ...[...new Set(admins.map(([, c]) => c))].map((c) => `${c}-544 LocalToComputer ${c}`),
        ...admins.map(([a, c]) => `${a} MemberOfLocalGroup ${c}-544`),
      ],
    };
    expect(await analyse(g, ['CoerceAndRelayNTLMToSMB'])).toEqual([
      'DOMAIN1-S-1-5-11 CoerceAndRelayNTLMToSMB Computer2',
      'DOMAIN2-S-1-5-11 CoerceAndRelayNTLMToSMB Computer9',
    ]);
  });
  it('dcsyncharness: GetChanges and GetChangesAll held directly or through different groups', async () => {
    const g = merge(domain(), {
      nodes: [...groups('Group1', 'Group2', 'Group3'), ...users('User1', 'User2', 'User3', 'User4')],
      edges: [
        'User2 MemberOf Group1',
        'User2 MemberOf Group2',
        'User3 MemberOf Group2',
        'Group3 MemberOf Group2',
        'User4 MemberOf Group3',
        `User1 GetChanges ${D}`,
        `User1 GetChangesAll ${D}`,
        `Group1 GetChanges ${D}`,
        `Group2 GetChangesAll ${D}`,
        `Group3 GetChanges ${D}`,
      ],
    });
    expect(await analyse(g, ['DCSync'])).toEqual([`Group3 DCSync ${D}`, `User1 DCSync ${D}`, `User2 DCSync ${D}`]);
  });
  it('ShortcutHarnessEveryone: a set reaching Everyone adds no condition; the other set, first degree, is the answer', async () => {
    const g = crossProduct(
      [...groups('Group1', 'Group2', 'Group3', 'TEST.LOCAL-S-1-1-0'), ...users('User1')],
      [
        'TEST.LOCAL-S-1-1-0 MemberOf Group1', // Group4 (Everyone)
        'Group3 MemberOf Group2',
        'User1 MemberOf TEST.LOCAL-S-1-1-0',
        'User1 MemberOf Group3',
      ],
    );
    expect(await analyse(g, ['DCSync'])).toEqual([`Group2 DCSync ${D}`]);
  });
});
