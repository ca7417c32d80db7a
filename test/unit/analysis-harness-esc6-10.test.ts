import { adcsChain, inDomain, merge, templates, useAnalysis, victimDomain, withProps, type SmallGraph } from './analysis-graph';

/**
 * BloodHound's ESC6 and ESC10 integration harnesses (esc6a-*.json, esc6b-*.json, esc10*.json beside
 * cmd/api/src/test/integration/harnesses.go), run through our whole analysis; the expected edges are what
 * adcs_integration_test.go asserts. The PKI chain is `adcsChain` (EnterpriseCA1, RootCA1, NTAuthStore1, Host1).
 */
const D = 'DOMAIN1';
const { groups, computers, users } = inDomain(D);
const toDomain = (kind: string, ...principals: string[]) => principals.map((p) => `${p} ${kind} ${D}`).sort();

/** The CA with the drawn flags, Group0 enrolling on it, and template i enrolled on by Group i (a member of Group0). */
function perTemplateGroups(caProps: Record<string, unknown>, spec: Record<string, unknown>[]): SmallGraph {
  const t = (i: number) => `CertTemplate${i + 1}`;
  const g = (i: number) => `Group${i + 1}`;
  return merge(adcsChain(D, caProps), {
    nodes: [...templates(Object.fromEntries(spec.map((p, i) => [t(i), p]))), ...groups('Group0', ...spec.map((_, i) => g(i)))],
    edges: [
      'Group0 Enroll EnterpriseCA1',
      ...spec.flatMap((_, i) => [`${t(i)} PublishedTo EnterpriseCA1`, `${g(i)} Enroll ${t(i)}`, `${g(i)} MemberOf Group0`]),
    ],
  });
}
const SAN = { isuserspecifiessanenabled: true, isuserspecifiessanenabledcollected: true };

/**
 * The principal/victim harnesses' shape: `${kind}1..4` hold GenericAll, AllExtendedRights, GenericWrite and Enroll on
 * CertTemplate1 (with `template`'s properties); the first three are in Group0, which enrolls on the CA.
 */
function templateRights(kind: 'Group' | 'Computer', caProps: Record<string, unknown>, template: Record<string, unknown>): SmallGraph {
  const rights = ['GenericAll', 'AllExtendedRights', 'GenericWrite', 'Enroll'];
  const names = rights.map((_, i) => `${kind}${i + 1}`);
  return merge(adcsChain(D, caProps), {
    nodes: [
      ...templates({ CertTemplate1: template }),
      ...groups('Group0'),
      ...inDomain(D)[kind === 'Group' ? 'groups' : 'computers'](...names),
    ],
    edges: [
      'Group0 Enroll EnterpriseCA1',
      'CertTemplate1 PublishedTo EnterpriseCA1',
      ...rights.map((r, i) => `${names[i]} ${r} CertTemplate1`),
      ...names.slice(0, 3).map((n) => `${n} MemberOf Group0`),
    ],
  });
}

/** The CA with the drawn flags, Group0 enrolling on it, and template i enrolled on by Groupi, Computeri and Useri, all in Group0. */
function threePerTemplate(caProps: Record<string, unknown>, spec: Record<string, unknown>[]): SmallGraph {
  const principals = (i: number) => [`Group${i}`, `Computer${i}`, `User${i}`];
  return merge(adcsChain(D, caProps), {
    nodes: [
      ...templates(Object.fromEntries(spec.map((p, k) => [`CertTemplate${k + 1}`, p]))),
      ...groups('Group0', ...spec.map((_, k) => `Group${k + 1}`)),
      ...computers(...spec.map((_, k) => `Computer${k + 1}`)),
      ...users(...spec.map((_, k) => `User${k + 1}`)),
    ],
    edges: [
      'Group0 Enroll EnterpriseCA1',
      ...spec.flatMap((_, k) => [
        `CertTemplate${k + 1} PublishedTo EnterpriseCA1`,
        ...principals(k + 1).flatMap((p) => [`${p} Enroll CertTemplate${k + 1}`, `${p} MemberOf Group0`]),
      ]),
    ],
  });
}

describe('BloodHound ESC6 harnesses', () => {
  const { analyse } = useAnalysis();

  it('ESC6aHarnessTemplate1: authentication, no approval, no signatures and no security extension', async () => {
    const base = { authenticationenabled: true, requiresmanagerapproval: false, schemaversion: 1, nosecurityextension: true };
    const g = perTemplateGroups(SAN, [
      { ...base, schemaversion: 2, authorizedsignatures: 0 },
      base,
      { ...base, nosecurityextension: false },
      { ...base, requiresmanagerapproval: true },
      { ...base, authenticationenabled: false },
      { ...base, schemaversion: 2, authorizedsignatures: 1 },
    ]);
    expect(await analyse(g, ['ADCSESC6a'])).toEqual(toDomain('ADCSESC6a', 'Group1', 'Group2'));
  });
  it('ESC6aHarnessTemplate2: a template requiring a DNS name (or domain DNS name) drops plain users', async () => {
    const base = { authenticationenabled: true, requiresmanagerapproval: false, schemaversion: 1, nosecurityextension: true };
    const g = threePerTemplate(SAN, [base, { ...base, subjectaltrequiredns: true }, { ...base, subjectaltrequiredomaindns: true }]);
    expect(await analyse(g, ['ADCSESC6a'])).toEqual(
      toDomain('ADCSESC6a', 'Computer1', 'Computer2', 'Computer3', 'Group1', 'Group2', 'Group3', 'User1'),
    );
  });
  it('ESC6aHarnessPrincipalEdges: GenericAll and AllExtendedRights enroll on the template, GenericWrite does not', async () => {
    const template = { authenticationenabled: true, requiresmanagerapproval: false, schemaversion: 1, nosecurityextension: true };
    expect(await analyse(templateRights('Group', SAN, template), ['ADCSESC6a'])).toEqual(toDomain('ADCSESC6a', 'Group1', 'Group2'));
  });
  it('ESC6bTemplate1Harness: Schannel authentication, no approval, no signatures, a DC mapping certificates by UPN', async () => {
    const base = { schannelauthenticationenabled: true, requiresmanagerapproval: false, schemaversion: 1 };
    const g = merge(
      perTemplateGroups(SAN, [
        { ...base, schemaversion: 2, authorizedsignatures: 0 },
        base,
        { ...base, schannelauthenticationenabled: false },
        { ...base, requiresmanagerapproval: true },
        { ...base, schemaversion: 2, authorizedsignatures: 1 },
      ]),
      { nodes: [['DC', 'Computer', { domainsid: D, isdc: true, certificatemappingmethodsraw: 31 }]], edges: [`DC DCFor ${D}`] },
    );
    expect(await analyse(g, ['ADCSESC6b'])).toEqual(toDomain('ADCSESC6b', 'Group1', 'Group2'));
  });
  // esc6a-eca.json / esc6b-eca.json. Domain i: EnterpriseCAi (hosted) with CertTemplatei, Groupi enrolling on both,
  // and DCi mapping certificates by UPN. Only Domain0 is complete: Domain1's CA did not collect the flag; Domain2
  // (6b only) has a DC that does not map by UPN; Domain3's CA is not in the NTAuth store; Domain4's does not chain
  // to its root; Domain5's template is not published. The 6b drawing predates the CertificateMappingMethods value
  // (it draws CanAbuseUPNCertMapping); the DCs carry the value here.
  const ESC6_TEMPLATES = {
    ADCSESC6a: { authenticationenabled: true, requiresmanagerapproval: false, schemaversion: 1, nosecurityextension: true },
    ADCSESC6b: { schannelauthenticationenabled: true, requiresmanagerapproval: false, schemaversion: 1 },
  };
  it.each(['ADCSESC6a', 'ADCSESC6b'] as const)(
    '%s ECA harness: only the CA with the SAN flag, trusted, chained and publishing',
    async (kind) => {
      const domain = (i: number, caProps: Record<string, unknown>, published = true, upn = 31): SmallGraph =>
        merge(adcsChain(`Domain${i}`, caProps, String(i)), {
          nodes: [
            ...templates({ [`CertTemplate${i}`]: ESC6_TEMPLATES[kind] }),
            [`Group${i}`, 'Group', { domainsid: `Domain${i}` }],
            [`DC${i}`, 'Computer', { domainsid: `Domain${i}`, isdc: true, certificatemappingmethodsraw: upn }],
          ],
          edges: [
            `DC${i} DCFor Domain${i}`,
            `Group${i} Enroll EnterpriseCA${i}`,
            `Group${i} Enroll CertTemplate${i}`,
            ...(published ? [`CertTemplate${i} PublishedTo EnterpriseCA${i}`] : []),
          ],
        });
      const g = merge(
        domain(0, SAN),
        domain(1, { isuserspecifiessanenabledcollected: false }),
        ...(kind === 'ADCSESC6b' ? [domain(2, SAN, true, 3)] : []),
        withProps(domain(3, SAN), 'NTAuthStore3', { certthumbprints: [] }),
        withProps(domain(4, SAN), 'EnterpriseCA4', { certchain: ['E4'] }),
        domain(5, SAN, false),
      );
      expect(await analyse(g, [kind])).toEqual([`Group0 ${kind} Domain0`]);
    },
  );
});

/** Schannel-authentication templates for ESC10 (harness defaults: no approval, subject not supplied by the enrollee). */
const ESC10 = { schemaversion: 1, schannelauthenticationenabled: true };
/** Per domain, the DCs' drawn registry values: UPN mapping is bit 4 of CertificateMappingMethods (-1: no value). */
const DC_HARNESS: Record<string, unknown>[][] = [
  [{ certificatemappingmethodsraw: 4 }],
  [{ certificatemappingmethodsraw: 31 }],
  [
    { certificatemappingmethodsraw: -1, strongcertificatebindingenforcementraw: 0 },
    {},
    { certificatemappingmethodsraw: 0, strongcertificatebindingenforcementraw: 1 },
    { certificatemappingmethodsraw: 3, strongcertificatebindingenforcementraw: 2 },
    { certificatemappingmethodsraw: 27 },
  ],
];

describe('BloodHound ESC10 harnesses', () => {
  const { analyse } = useAnalysis();

  // ESC10aHarnessDC1 draws user victims and a UPN requirement, ESC10bHarnessDC1 computer victims and a DNS one.
  it.each([
    ['ESC10aHarnessDC1', 'User', 'subjectaltrequireupn', 'ADCSESC10a'],
    ['ESC10bHarnessDC1', 'Computer', 'subjectaltrequiredns', 'ADCSESC10b'],
  ])('%s: a DC of the domain maps certificates by UPN (4, 31), not -1, 0, 3, 27 or missing', async (_name, victim, san, kind) => {
    const g = merge(...DC_HARNESS.map((dcs, i) => victimDomain(i, { ...ESC10, [san]: true }, dcs, victim)));
    expect(await analyse(g, ['ADCSESC10a', 'ADCSESC10b'])).toEqual([`Group0 ${kind} Domain0`, `Group1 ${kind} Domain1`]);
  });
  // ESC10aHarness2 / ESC10bHarness2: template i is enrolled on by Groupi, Computeri and Useri (all in Group0, which
  // enrolls on the CA); Group4-6, Computer4-6 and User4-6 hold GenericAll on Group1, Computer1, User1 and so on.
  // Scenario a takes user and computer victims (users only where no DNS name is required), b computers only.
  const base = { schemaversion: 2, authorizedsignatures: 0, schannelauthenticationenabled: true, subjectaltrequireemail: true };
  const both = { subjectaltrequiredns: true, subjectaltrequiredomaindns: true };
  const KINDS = ['Group', 'Computer', 'User'];
  it.each([
    [
      'ESC10aHarness2',
      'ADCSESC10a',
      [
        { subjectaltrequireupn: true },
        { subjectaltrequireupn: true, subjectaltrequiredns: true },
        { subjectaltrequireupn: true, subjectaltrequiredomaindns: true },
      ],
      ['Computer5', 'Group5', 'Group6', 'User5'],
    ],
    ['ESC10bHarness2', 'ADCSESC10b', [{ subjectaltrequiredomaindns: true }, { subjectaltrequiredns: true }, both], ['Computer5', 'User5']],
  ] as const)('%s: victims per scenario and DNS requirement; whoever controls a victim escalates', async (_name, kind, spec, expected) => {
    const g = merge(
      threePerTemplate(
        {},
        spec.map((p) => ({ ...base, ...p })),
      ),
      {
        nodes: [
          ['ComputerDC', 'Computer', { domainsid: D, isdc: true, certificatemappingmethodsraw: 31 }],
          ...groups('Group4', 'Group5', 'Group6'),
          ...computers('Computer4', 'Computer5', 'Computer6'),
          ...users('User4', 'User5', 'User6'),
        ],
        edges: [
          `ComputerDC DCFor ${D}`,
          ...[1, 2, 3].flatMap((t) => KINDS.map((victim, k) => `${KINDS[t - 1]}${k + 4} GenericAll ${victim}${t}`)),
        ],
      },
    );
    expect(await analyse(g, [kind])).toEqual(toDomain(kind, ...expected));
  });
  // ESC10aPrincipalHarness / ESC10bPrincipalHarness: Group1-6 hold one right each on victim 1 (a user for 10a, a
  // computer for 10b), victim 2 holds GenericAll on itself, both are in Group0 which enrolls on template and CA.
  // WriteOwner is derived from WriteOwnerRaw in a whole run, so that is what is drawn for Group4 and Group5. OU1 is
  // ours: FetchAttackersForEscalations9and10 takes only groups, users and computers as attackers.
  // BloodHound's ADCSESC10aPrincipalHarness test also asserts Group6, whose only right is AllExtendedRights; its rule
  // code (FetchAttackersForEscalations9and10: GenericAll, GenericWrite, Owns, WriteOwner, WriteDACL) does not take
  // that right, nor does its ESC10b twin's assertion, so we follow the rule code.
  it.each([
    ['ESC10aPrincipalHarness', 'ADCSESC10a', 'User', { subjectaltrequireupn: true }],
    ['ESC10bPrincipalHarness', 'ADCSESC10b', 'Computer', { subjectaltrequiredns: true }],
  ] as const)('%s: GenericAll, GenericWrite, WriteDacl, WriteOwner on the victim, itself included', async (_name, kind, victim, san) => {
    const rights = ['GenericAll', 'GenericWrite', 'WriteDacl', 'WriteOwnerRaw', 'WriteOwnerRaw', 'AllExtendedRights'];
    const [v1, v2] = [`${victim}1`, `${victim}2`];
    const g = merge(adcsChain(D), {
      nodes: [
        ['ComputerDC', 'Computer', { domainsid: D, isdc: true, certificatemappingmethodsraw: 31 }],
        ...templates({ CertTemplate: { ...ESC10, ...san } }),
        ...groups('Group0', ...rights.map((_, k) => `Group${k + 1}`)),
        [v1, victim, { domainsid: D }],
        [v2, victim, { domainsid: D }],
        ['OU1', 'OU', { domainsid: D }],
      ],
      edges: [
        `ComputerDC DCFor ${D}`,
        'CertTemplate PublishedTo EnterpriseCA1',
        'Group0 Enroll CertTemplate',
        'Group0 Enroll EnterpriseCA1',
        `${v1} MemberOf Group0`,
        `${v2} MemberOf Group0`,
        `${v2} GenericAll ${v2}`,
        ...rights.map((r, k) => `Group${k + 1} ${r} ${v1}`),
        `OU1 GenericAll ${v1}`,
      ],
    });
    expect(await analyse(g, [kind])).toEqual(toDomain(kind, v2, 'Group1', 'Group2', 'Group3', 'Group4', 'Group5'));
  });
  it('ESC10bHarnessVictim: victims enroll on the template (Enroll, GenericAll, AllExtendedRights) and on the CA', async () => {
    // The drawing predates CertificateMappingMethods (it draws CanAbuseUPNCertMapping); the DC carries the value here.
    // Computer3 only has GenericWrite on the template; Computer4 is not in Group0, so cannot enroll on the CA.
    const g = merge(templateRights('Computer', {}, { ...ESC10, subjectaltrequiredns: true }), {
      nodes: [
        ['ComputerDC', 'Computer', { domainsid: D, isdc: true, certificatemappingmethodsraw: 31 }],
        ...groups('Group1', 'Group2', 'Group3', 'Group4'),
      ],
      edges: [`ComputerDC DCFor ${D}`, ...[1, 2, 3, 4].map((i) => `Group${i} GenericAll Computer${i}`)],
    });
    expect(await analyse(g, ['ADCSESC10b'])).toEqual(toDomain('ADCSESC10b', 'Group1', 'Group2'));
  });
  it('ESC10aHarness1: Schannel authentication (flag or EKUs), UPN or SPN required, no approval, no signatures', async () => {
    // Template i is enrolled on by Useri (in Group0, which enrolls on the CA); Groupi holds GenericAll on Useri.
    // CertTemplate1 has no Schannel flag (NewActiveDirectoryCertTemplateWoutSchannelAuthEnabled): its empty EKUs decide.
    const { schannelauthenticationenabled: _flag, ...noFlag } = {
      ...ESC10,
      schemaversion: 2,
      subjectaltrequireupn: true,
      effectiveekus: [],
    };
    const spec = [
      noFlag,
      { ...ESC10, subjectaltrequireupn: true, nosecurityextension: true },
      { ...ESC10, subjectaltrequirespn: true },
      { ...ESC10, subjectaltrequireupn: true, requiresmanagerapproval: true },
      { ...ESC10, subjectaltrequireupn: true, schannelauthenticationenabled: false },
      { ...ESC10, subjectaltrequireupn: true, schemaversion: 2, authorizedsignatures: 1 },
      ESC10,
    ];
    const n = spec.map((_, k) => k + 1);
    const g = merge(adcsChain(D), {
      nodes: [
        ['DC', 'Computer', { domainsid: D, isdc: true, certificatemappingmethodsraw: 31 }],
        ...templates(Object.fromEntries(spec.map((p, k) => [`CertTemplate${k + 1}`, p]))),
        ...groups('Group0', ...n.map((i) => `Group${i}`)),
        ...users(...n.map((i) => `User${i}`)),
      ],
      edges: [
        `DC DCFor ${D}`,
        'Group0 Enroll EnterpriseCA1',
        ...n.flatMap((i) => [
          `CertTemplate${i} PublishedTo EnterpriseCA1`,
          `User${i} Enroll CertTemplate${i}`,
          `User${i} MemberOf Group0`,
          `Group${i} GenericAll User${i}`,
        ]),
      ],
    });
    expect(await analyse(g, ['ADCSESC10a'])).toEqual(toDomain('ADCSESC10a', 'Group1', 'Group2', 'Group3'));
  });
});
