import { adcsChain, inDomain, merge, templates, useAnalysis, type SmallGraph } from './analysis-graph';

/**
 * BloodHound's ESC3/ESC4/ESC6/ESC10 integration harnesses (cmd/api/src/test/integration/harnesses.go and the JSON
 * harnesses beside it), run through our whole analysis; the expected edges are what adcs_integration_test.go asserts.
 * Node names are the harness's; the harness's PKI chain is `adcsChain` (EnterpriseCA1, RootCA1, NTAuthStore1, Host1).
 */
const D = 'DOMAIN1';
const { users, groups, computers } = inDomain(D);
const toDomain = (kind: string, ...principals: string[]) => principals.map((p) => `${p} ${kind} ${D}`).sort();

/**
 * BloodHound's ESC3 tests draw EnrollOnBehalfOf and run only the ESC3 rule. EnrollOnBehalfOf is itself derived
 * (ad.PostProcessedRelationships), so a whole run, theirs or ours, replaces the drawn edges with those the
 * templates' EKUs give: the harness's empty EKUs make every template published to a chained CA an agent for every
 * schema-1 template linked to the domain. Both are asserted, so a difference shows which side it comes from.
 */
describe('BloodHound ESC3 harnesses', () => {
  const { analyse } = useAnalysis();
  const noEkus = (spec: Record<string, Record<string, unknown>>) =>
    templates(Object.fromEntries(Object.entries(spec).map(([n, p]) => [n, { effectiveekus: [], applicationpolicies: [], ...p }])));
  /** The CA's enrollment-agent restriction flags the harness sets. */
  const withCa = (caProps: Record<string, unknown>, g: SmallGraph): SmallGraph => merge(adcsChain(D, caProps), g);

  it('ESC3Harness1: agent templates on any CA, targets on this one; a self-agent template counts', async () => {
    const g = withCa(
      { enrollmentagentrestrictionscollected: true, hasenrollmentagentrestrictions: false },
      {
        nodes: [
          ...computers('Computer1'),
          ...users('User1', 'User2', 'User3'),
          ...groups('Group1', 'Group2'),
          ...noEkus({
            CertTemplate0: { schemaversion: 1, subjectaltrequireupn: true },
            CertTemplate1: { authenticationenabled: false },
            CertTemplate2: { schemaversion: 1, subjectaltrequireupn: true },
            CertTemplate3: { schemaversion: 1, authenticationenabled: false },
          }),
          // Published to but not trusted for NTAuth: its templates can still be the agent side.
          ['EnterpriseCA2', 'EnterpriseCA', { domainsid: D }],
        ],
        edges: [
          'Computer1 Enroll CertTemplate0',
          'Computer1 Enroll EnterpriseCA1',
          'CertTemplate0 EnrollOnBehalfOf CertTemplate0',
          'CertTemplate0 PublishedTo EnterpriseCA1',
          'User3 Enroll CertTemplate1',
          'Group2 Enroll CertTemplate1',
          'Group2 MemberOf Group1',
          'User2 MemberOf Group1',
          'User1 GenericAll CertTemplate3',
          'User1 MemberOf Group1',
          'User1 Enroll EnterpriseCA2',
          'Group1 Enroll EnterpriseCA1',
          'Group1 AllExtendedRights CertTemplate2',
          'CertTemplate1 PublishedTo EnterpriseCA1',
          'CertTemplate1 EnrollOnBehalfOf CertTemplate2',
          'CertTemplate2 PublishedTo EnterpriseCA1',
          'CertTemplate3 EnrollOnBehalfOf CertTemplate2',
          'CertTemplate3 PublishedTo EnterpriseCA2',
        ],
      },
    );
    const edges = await analyse(g, ['ADCSESC3', 'EnrollOnBehalfOf']);
    // Drawn: CertTemplate0 -> 0, 1 -> 2, 3 -> 2. CertTemplate3 is published only to the unchained EnterpriseCA2, so
    // no run derives 3 -> 2 (BloodHound's User1 comes from that drawn edge); CertTemplate2, with no EKUs, is an agent
    // for itself, which makes Group1 (AllExtendedRights on it, Enroll on the CA) an ESC3 principal.
    expect(edges.filter((e) => e.includes('EnrollOnBehalfOf'))).toEqual(
      ['0 0', '0 2', '1 0', '1 2', '2 0', '2 2']
        .map((p) => p.split(' '))
        .map(([a, b]) => `CertTemplate${a} EnrollOnBehalfOf CertTemplate${b}`),
    );
    expect(edges.filter((e) => e.includes('ADCSESC3'))).toEqual(toDomain('ADCSESC3', 'Computer1', 'Group1', 'Group2'));
  });

  /** ESC3Harness2 and 3 share one graph; only the CA's restriction flags and User1's delegation differ. */
  const restricted = (caProps: Record<string, unknown>, delegate: boolean): SmallGraph =>
    withCa(caProps, {
      nodes: [
        ...users('User1', 'User2'),
        ...groups('Group1'),
        ...noEkus({ CertTemplate1: {}, CertTemplate2: { schemaversion: 1, subjectaltrequireupn: true } }),
      ],
      edges: [
        'User2 MemberOf Group1',
        ...(delegate ? ['User1 MemberOf Group1', 'User1 DelegatedEnrollmentAgent CertTemplate2'] : []),
        'Group1 Enroll CertTemplate1',
        'Group1 Enroll EnterpriseCA1',
        'Group1 AllExtendedRights CertTemplate2',
        'CertTemplate1 PublishedTo EnterpriseCA1',
        'CertTemplate1 EnrollOnBehalfOf CertTemplate2',
        'CertTemplate2 PublishedTo EnterpriseCA1',
      ],
    });
  it('ESC3Harness2: with enrollment-agent restrictions only the delegated agent qualifies', async () => {
    const g = restricted({ enrollmentagentrestrictionscollected: true, hasenrollmentagentrestrictions: true }, true);
    expect(await analyse(g, ['ADCSESC3'])).toEqual(toDomain('ADCSESC3', 'User1'));
  });
  it('ESC3Harness3: restrictions not collected count as unrestricted', async () => {
    const g = restricted({ enrollmentagentrestrictionscollected: false }, false);
    expect(await analyse(g, ['ADCSESC3'])).toEqual(toDomain('ADCSESC3', 'Group1'));
  });
});

const EKU = { anyPurpose: '2.5.29.37.0', requestAgent: '1.3.6.1.4.1.311.20.2.1' };
const eobo = (...pairs: [string, string][]) => pairs.map(([a, b]) => `CertTemplate${a} EnrollOnBehalfOf CertTemplate${b}`).sort();

/** TestEnrollOnBehalfOf: which templates are agents for which, from schema versions, EKUs and application policies. */
describe('BloodHound EnrollOnBehalfOf harnesses', () => {
  const { analyse } = useAnalysis();
  const anyPurpose = { authenticationenabled: false, effectiveekus: [EKU.anyPurpose], applicationpolicies: [] };

  it('EnrollOnBehalfOfHarness1: any-purpose agents only for schema-1 targets, itself included', async () => {
    const g = merge(adcsChain(D), {
      nodes: templates({ CertTemplate11: anyPurpose, CertTemplate12: { ...anyPurpose, schemaversion: 1 }, CertTemplate13: anyPurpose }),
      edges: ['11', '12', '13'].map((t) => `CertTemplate${t} PublishedTo EnterpriseCA1`),
    });
    expect(await analyse(g, ['EnrollOnBehalfOf'])).toEqual(eobo(['11', '12'], ['12', '12'], ['13', '12']));
  });
  it('EnrollOnBehalfOfHarness2: schema-2 targets need a signature with the request-agent policy, agents exactly that EKU', async () => {
    const base = { authenticationenabled: false, applicationpolicies: [] };
    const g = merge(adcsChain(D), {
      nodes: templates({
        CertTemplate21: { ...base, effectiveekus: [EKU.requestAgent] },
        CertTemplate22: { ...base, effectiveekus: [EKU.requestAgent, EKU.anyPurpose] },
        CertTemplate23: { ...base, authorizedsignatures: 1, effectiveekus: [EKU.requestAgent], applicationpolicies: [EKU.requestAgent] },
        CertTemplate24: { ...base, authorizedsignatures: 1, effectiveekus: [] },
      }),
      edges: ['21', '22', '23', '24'].map((t) => `CertTemplate${t} PublishedTo EnterpriseCA1`),
    });
    expect(await analyse(g, ['EnrollOnBehalfOf'])).toEqual(eobo(['21', '23']));
  });
  it('EnrollOnBehalfOfHarness3: a template on a CA missing from the NTAuth store is neither agent nor target', async () => {
    const g = merge(adcsChain(D), {
      nodes: [
        ['EnterpriseCA2', 'EnterpriseCA', { domainsid: D, certthumbprint: 'E2', certchain: ['E2', 'R1'] }],
        ...templates({ CertTemplate11: anyPurpose, CertTemplate12: { ...anyPurpose, schemaversion: 1 }, CertTemplate13: anyPurpose }),
      ],
      edges: [
        'Host1 HostsCAService EnterpriseCA2',
        'CertTemplate11 PublishedTo EnterpriseCA1',
        'CertTemplate12 PublishedTo EnterpriseCA1',
        'CertTemplate13 PublishedTo EnterpriseCA2',
      ],
    });
    // EnterpriseCA2 chains to RootCA1 (IssuedSignedBy, derived from its chain) but is not in the NTAuth store.
    expect(await analyse(g, ['EnrollOnBehalfOf'])).toEqual(eobo(['11', '12'], ['12', '12']));
  });
});

/** Drawn template properties: authentication, manager approval, schema, enrollee supplies subject, signatures. */
const drawn = (auth: boolean, approval: boolean, schemaversion: number, ess: boolean, authorizedsignatures: number) => ({
  authenticationenabled: auth,
  requiresmanagerapproval: approval,
  schemaversion,
  enrolleesuppliessubject: ess,
  authorizedsignatures,
});

/**
 * TestADCSESC4 (esc4-harness-template-*.json): Group0 enrolls on the CA; each template i has five groups in Group0
 * holding, in order, GenericAll; Enroll+GenericWrite; Enroll+WritePKINameFlag; Enroll+WritePKIEnrollmentFlag;
 * Enroll and both flags. Which of them get ESC4 depends on the template's drawn properties.
 */
const RIGHTS = [
  ['GenericAll'],
  ['Enroll', 'GenericWrite'],
  ['Enroll', 'WritePKINameFlag'],
  ['Enroll', 'WritePKIEnrollmentFlag'],
  ['Enroll', 'WritePKIEnrollmentFlag', 'WritePKINameFlag'],
];
const fiveGroups = (rows: Parameters<typeof drawn>[]): SmallGraph =>
  merge(
    adcsChain(D),
    { nodes: groups('Group0'), edges: ['Group0 Enroll EnterpriseCA1'] },
    ...rows.map((row, k): SmallGraph => {
      const t = `CertTemplate${k + 1}`;
      const g = (j: number) => `Group${k + 1}.${j}`;
      return {
        nodes: [...templates({ [t]: drawn(...row) }), ...groups(...RIGHTS.map((_, j) => g(j + 1)))],
        edges: [
          `${t} PublishedTo EnterpriseCA1`,
          ...RIGHTS.flatMap((rs, j) => [`${g(j + 1)} MemberOf Group0`, ...rs.map((r) => `${g(j + 1)} ${r} ${t}`)]),
        ],
      };
    }),
  );
const esc4 = (...names: string[]) => toDomain('ADCSESC4', ...names.map((n) => `Group${n}`));

describe('BloodHound ESC4 harnesses', () => {
  const { analyse } = useAnalysis();

  // Rows: [authentication, manager approval, schema version, enrollee supplies subject, authorised signatures].
  const cases: [string, Parameters<typeof drawn>[], string[]][] = [
    [
      'ESC4Template1: the flag rights only where authentication is allowed without signatures',
      [
        [true, false, 1, true, 1],
        [false, false, 1, true, 1],
        [true, false, 2, true, 1],
        [true, false, 2, true, 0],
      ],
      ['1.1', '1.2', '1.3', '1.4', '1.5', '2.1', '2.2', '3.1', '3.2', '4.1', '4.2', '4.3', '4.4', '4.5'],
    ],
    [
      'ESC4Template2: the name flag needs no manager approval, the enrollment flag an enrollee-supplied subject',
      [
        [false, true, 1, false, 0],
        [true, true, 1, false, 0],
        [true, false, 1, false, 0],
        [true, true, 1, true, 0],
        [true, false, 1, true, 0],
      ],
      ['1.1', '1.2', '2.1', '2.2', '2.5', '3.1', '3.2', '3.3', '3.5', '4.1', '4.2', '4.4', '4.5', '5.1', '5.2', '5.3', '5.4', '5.5'],
    ],
  ];
  it.each(cases)('%s', async (_name, rows, expected) => {
    expect(await analyse(fiveGroups(rows), ['ADCSESC4'])).toEqual(esc4(...expected));
  });
  it('ESC4Template3: control of the template alone suffices; a flag right or enrollment alone does not', async () => {
    // Owns and WriteOwner are derived from OwnsRaw / WriteOwnerRaw in a whole run, so those are what is drawn here.
    const rights = [
      'GenericAll',
      'GenericWrite',
      'WritePKINameFlag',
      'WritePKIEnrollmentFlag',
      'Enroll',
      'AllExtendedRights',
      'OwnsRaw',
      'WriteOwnerRaw',
      'WriteDacl',
    ];
    const g = merge(adcsChain(D), {
      nodes: [
        ...templates({ CertTemplate1: drawn(true, false, 1, true, 1) }),
        ...groups('Group0', ...rights.map((_, j) => `Group1.${j + 1}`)),
      ],
      edges: [
        'Group0 Enroll EnterpriseCA1',
        'CertTemplate1 PublishedTo EnterpriseCA1',
        ...rights.flatMap((r, j) => [`Group1.${j + 1} MemberOf Group0`, `Group1.${j + 1} ${r} CertTemplate1`]),
      ],
    });
    expect(await analyse(g, ['ADCSESC4'])).toEqual(esc4('1.1', '1.7', '1.8', '1.9'));
  });
  it('ESC4Template4: users and computers as well as groups; AllExtendedRights is enrollment', async () => {
    const g = merge(adcsChain(D), {
      nodes: [
        ...templates({ CertTemplate1: drawn(true, false, 1, true, 0) }),
        ...groups('Group0', 'Group1', 'Group1.2', 'Group1.3'),
        ...computers('Computer1'),
        ...users('User1'),
      ],
      edges: [
        'Group0 Enroll EnterpriseCA1',
        'CertTemplate1 PublishedTo EnterpriseCA1',
        ...['Group1', 'Computer1', 'User1', 'Group1.2', 'Group1.3'].map((p) => `${p} MemberOf Group0`),
        'Group1 GenericAll CertTemplate1',
        'Computer1 AllExtendedRights CertTemplate1',
        'Computer1 GenericWrite CertTemplate1',
        'User1 AllExtendedRights CertTemplate1',
        'User1 WritePKINameFlag CertTemplate1',
        'Group1.2 AllExtendedRights CertTemplate1',
        'Group1.2 WritePKIEnrollmentFlag CertTemplate1',
        'Group1.3 AllExtendedRights CertTemplate1',
        'Group1.3 WritePKIEnrollmentFlag CertTemplate1',
        'Group1.3 WritePKINameFlag CertTemplate1',
      ],
    });
    expect(await analyse(g, ['ADCSESC4'])).toEqual(toDomain('ADCSESC4', 'Computer1', 'Group1', 'Group1.2', 'Group1.3', 'User1'));
  });
});
