import { adcsChain, CERT_TEMPLATE as TEMPLATE, inDomain, merge, useAnalysis, victimDomain, type SmallGraph } from './analysis-graph';

/**
 * BloodHound's ADCS integration harnesses (cmd/api/src/test/integration/harnesses/*.json) translated node for node:
 * the harness's input edges become the graph, its coloured result edges are exactly what must appear.
 * Node names are the harness captions.
 */
const D = 'DOMAIN1';

const chain = () => adcsChain(D);
const { users, groups } = inDomain(D);

describe('BloodHound ADCS harnesses', () => {
  const { analyse } = useAnalysis();

  it('adcsesc1-1: the cross product keeps a member that also qualifies through another first-degree group', async () => {
    const g = merge(chain(), {
      nodes: [
        ['CertTemplate1', 'CertTemplate', { ...TEMPLATE, schemaversion: 1, enrolleesuppliessubject: true }],
        ...groups('Group1-1', 'Group1-2', 'Group1-3'),
        ...users('User1-1', 'User1-2', 'User1-3', 'User1-4', 'User1-5'),
      ],
      edges: [
        'CertTemplate1 PublishedTo EnterpriseCA1',
        'User1-1 MemberOf Group1-3',
        'User1-2 MemberOf Group1-3',
        'User1-4 MemberOf Group1-2',
        'User1-3 MemberOf Group1-2',
        'User1-1 MemberOf Group1-1',
        'User1-3 MemberOf Group1-1',
        'User1-5 MemberOf Group1-1',
        'Group1-1 Enroll CertTemplate1',
        'Group1-2 Enroll EnterpriseCA1',
        'Group1-3 Enroll EnterpriseCA1',
        'Group1-3 Enroll CertTemplate1',
      ],
    });
    expect(await analyse(g, ['ADCSESC1'])).toEqual([`Group1-3 ADCSESC1 ${D}`, `User1-1 ADCSESC1 ${D}`, `User1-3 ADCSESC1 ${D}`]);
  });
  it('ESC9aHarnessDC1: weak certificate binding (0 or 1) on a DC of the domain, not -1, 2, 3 or missing', async () => {
    // Per domain i: EnterpriseCAi -IssuedSignedBy-> RootCAi -RootCAFor-> Domaini, trusted in NTAuthStorei, DCs of
    // the domain with the drawn registry values, Useri enrolling on CertTemplatei and the CA, Groupi GenericAll on Useri.
    const dcs: Record<string, unknown>[][] = [
      [{ strongcertificatebindingenforcementraw: 0 }],
      [{ strongcertificatebindingenforcementraw: 1 }],
      [{ certificatemappingmethodsraw: -1, strongcertificatebindingenforcementraw: -1 }],
      [
        {},
        { certificatemappingmethodsraw: 0, strongcertificatebindingenforcementraw: 2 },
        { certificatemappingmethodsraw: 1, strongcertificatebindingenforcementraw: 3 },
      ],
    ];
    const template = { schemaversion: 1, nosecurityextension: true, subjectaltrequireupn: true };
    const parts = dcs.map((dcProps, i) => victimDomain(i, template, dcProps));
    expect(await analyse(merge(...parts), ['ADCSESC9a', 'ADCSESC9b'])).toEqual(['Group0 ADCSESC9a Domain0', 'Group1 ADCSESC9a Domain1']);
  });
  it('esc13harness1: only templates allowing authentication without approval or signatures pass the linked group on', async () => {
    // ExtendedByPolicy is derived (PostExtendedByPolicyBinding): the drawn edge becomes a certificate policy OID the
    // template names and the issuance policy carries.
    const OID = '1.3.6.1.4.1.311.21.8.1';
    const policy = { domainsid: D, certificatepolicy: [OID] };
    const tpl = (extra: Record<string, unknown>) => ({ ...TEMPLATE, ...policy, ...extra });
    const { authorizedsignatures: _unset, ...noSignatureValue } = TEMPLATE; // CertTemplate2 draws no AuthorizedSignatures
    const templates: [string, Record<string, unknown>][] = [
      ['CertTemplate1', tpl({ schemaversion: 2, authorizedsignatures: 0 })],
      ['CertTemplate2', { ...noSignatureValue, ...policy, schemaversion: 1 }],
      ['CertTemplate3', tpl({ schemaversion: 2, authorizedsignatures: 1 })],
      ['CertTemplate4', tpl({ schemaversion: 1, requiresmanagerapproval: true })],
      ['CertTemplate5', tpl({ schemaversion: 1, authenticationenabled: false })],
    ];
    const g = merge(chain(), {
      nodes: [
        ...templates.map(([n, p]): SmallGraph['nodes'][number] => [n, 'CertTemplate', p]),
        ...groups('Group0', 'Group1', 'Group2', 'Group3', 'Group4', 'Group5', 'Group6'),
        ['IssuancePolicy', 'IssuancePolicy', { domainsid: D, certtemplateoid: OID }],
      ],
      edges: [
        'Group0 Enroll EnterpriseCA1',
        'IssuancePolicy OIDGroupLink Group6',
        ...templates.flatMap(([n], i) => [`${n} PublishedTo EnterpriseCA1`, `Group${i + 1} Enroll ${n}`, `Group${i + 1} MemberOf Group0`]),
      ],
    });
    expect(await analyse(g, ['ADCSESC13'])).toEqual(['Group1 ADCSESC13 Group6', 'Group2 ADCSESC13 Group6']);
  });
});
