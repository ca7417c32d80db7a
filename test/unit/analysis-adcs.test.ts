import { inDomain, derived, load, merge, useAnalysis, type SmallGraph } from './analysis-graph';
import { runAnalysis } from '../../src/analysis/run';
import { PgGraphStore } from '../../src/graph/pg/store';

/**
 * ADCS rules on small graphs, one scenario per rule, after BloodHound's ADCS integration harnesses: a PKI that
 * chains properly (enterprise CA trusted in the domain's NTAuth store, chaining to a root CA of the domain,
 * hosted on a computer), then per ESC the principals that must and must not get the edge.
 */
const D = 'S-1-5-21-1-1-1';
const { computers, groups, users } = inDomain(D);
const RA = '1.3.6.1.4.1.311.20.2.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

/** A template that is safe by default: every rule needs one or two of these flipped. */
const template = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  domainsid: D,
  requiresmanagerapproval: false,
  authenticationenabled: true,
  enrolleesuppliessubject: false,
  schemaversion: 2,
  authorizedsignatures: 0,
  nosecurityextension: false,
  subjectaltrequiredns: false,
  subjectaltrequiredomaindns: false,
  subjectaltrequireupn: false,
  subjectaltrequirespn: false,
  effectiveekus: [CLIENT_AUTH],
  ...extra,
});

/** A self-signed enterprise CA (chain of one) also published as the domain's root CA, as in a one-tier PKI. */
function pki(opts: { ca?: Record<string, unknown>; hosted?: boolean; trusted?: boolean; dc?: Record<string, unknown> } = {}): SmallGraph {
  return {
    nodes: [
      [D, 'Domain', { domainsid: D }],
      ['CA', 'EnterpriseCA', { certthumbprint: 'AA', certchain: ['AA'], domainsid: D, ...opts.ca }],
      ['ROOT', 'RootCA', { certthumbprint: 'AA', certchain: ['AA'], domainsid: D }],
      ['NTAUTH', 'NTAuthStore', { certthumbprints: opts.trusted === false ? ['BB'] : ['AA'], domainsid: D }],
      ...computers('HOST'),
      ['DC', 'Computer', { domainsid: D, ...opts.dc }],
    ],
    edges: [
      `ROOT RootCAFor ${D}`,
      `NTAUTH NTAuthStoreFor ${D}`,
      `DC DCFor ${D}`,
      ...(opts.hosted === false ? [] : ['HOST HostsCAService CA']),
    ],
  };
}

describe('ADCS analysis rules', () => {
  const { analyse, db } = useAnalysis();

  const esc1 = (opts: Parameters<typeof pki>[0] = {}) =>
    merge(pki(opts), {
      nodes: [['T1', 'CertTemplate', template({ enrolleesuppliessubject: true })], ...groups('ENROLLERS'), ...users('ALICE', 'BOB')],
      edges: [
        'T1 PublishedTo CA',
        'ALICE MemberOf ENROLLERS',
        'ENROLLERS Enroll CA',
        'ENROLLERS Enroll T1',
        'BOB Enroll T1', // template only: not enough
      ],
    });

  it('EnterpriseCAFor, GoldenCert and ESC1 on a self-signed enterprise CA', async () => {
    expect(await analyse(esc1(), ['EnterpriseCAFor', 'TrustedForNTAuth', 'IssuedSignedBy', 'GoldenCert', 'ADCSESC1'])).toEqual(
      ['CA EnterpriseCAFor ROOT', 'CA TrustedForNTAuth NTAUTH', 'HOST GoldenCert ' + D, 'ENROLLERS ADCSESC1 ' + D].sort(),
    );
  });

  it('no GoldenCert or ESC edges when the CA is not trusted for NTAuth or has no host', async () => {
    expect(await analyse(esc1({ trusted: false }), ['GoldenCert', 'ADCSESC1'])).toEqual([]);
    expect(await analyse(esc1({ hosted: false }), ['GoldenCert', 'ADCSESC1'])).toEqual([]);
  });

  it('ESC1 takes users whatever the template says of DNS names (no user filter, unlike ESC3, 6, 9a, 10a and 13)', async () => {
    const g = esc1();
    // One template requires a DNS name, the other does not say (collectors before subjectaltrequiredns).
    g.nodes.push(['T2', 'CertTemplate', template({ enrolleesuppliessubject: true, subjectaltrequiredns: true })]);
    g.nodes.push(['T3', 'CertTemplate', template({ enrolleesuppliessubject: true, subjectaltrequiredns: undefined })]);
    g.nodes.push(['CAROL', 'User', { domainsid: D }], ['DAVE', 'User', { domainsid: D }]);
    g.edges.push('CAROL Enroll T2', 'DAVE Enroll T3', 'CAROL Enroll CA', 'DAVE Enroll CA', 'T2 PublishedTo CA', 'T3 PublishedTo CA');
    expect(await analyse(g, ['ADCSESC1'])).toEqual([`CAROL ADCSESC1 ${D}`, `DAVE ADCSESC1 ${D}`, `ENROLLERS ADCSESC1 ${D}`]);
  });

  it('EnrollOnBehalfOf and ESC3 through an enrollment agent template; none when the CA restricts agents', async () => {
    const g = (ca: Record<string, unknown> = {}) =>
      merge(pki({ ca }), {
        nodes: [
          ['AGENT', 'CertTemplate', template({ effectiveekus: [RA] })],
          ['TARGET', 'CertTemplate', template({ authorizedsignatures: 1, applicationpolicies: [RA] })],
          ['OTHER', 'CertTemplate', template({ authorizedsignatures: 1, applicationpolicies: [] })],
          ...users('U'),
        ],
        edges: [
          'AGENT PublishedTo CA',
          'TARGET PublishedTo CA',
          'OTHER PublishedTo CA',
          'U Enroll AGENT',
          'U Enroll TARGET',
          'U Enroll CA',
        ],
      });
    expect(await analyse(g(), ['EnrollOnBehalfOf', 'ADCSESC3'])).toEqual(['AGENT EnrollOnBehalfOf TARGET', `U ADCSESC3 ${D}`]);
    const restricted = { enrollmentagentrestrictionscollected: true, hasenrollmentagentrestrictions: true };
    expect(await analyse(g(restricted), ['ADCSESC3'])).toEqual([]);
  });

  it('ESC4: control of a published template plus enrollment on the CA', async () => {
    const g = merge(pki(), {
      nodes: [['T', 'CertTemplate', template()], ...users('OWNER', 'WRITER', 'FLAGGER', 'NOCA')],
      edges: [
        'T PublishedTo CA',
        'OWNER GenericAll T',
        'OWNER Enroll CA',
        'WRITER GenericWrite T',
        'WRITER Enroll T',
        'WRITER Enroll CA',
        'FLAGGER WritePKINameFlag T', // no enrollment on the template
        'FLAGGER Enroll CA',
        'NOCA WriteDacl T', // no enrollment on the CA
      ],
    });
    expect(await analyse(g, ['ADCSESC4'])).toEqual([`OWNER ADCSESC4 ${D}`, `WRITER ADCSESC4 ${D}`]);
  });

  it('ESC6a with a SAN-enabled CA; ESC6b only where a DC maps certificates by UPN', async () => {
    const g = (dc: Record<string, unknown>) =>
      merge(pki({ ca: { isuserspecifiessanenabled: true, isuserspecifiessanenabledcollected: true }, dc }), {
        nodes: [['T', 'CertTemplate', template({ nosecurityextension: true })], ...users('U')],
        edges: ['T PublishedTo CA', 'U Enroll T', 'U Enroll CA'],
      });
    expect(await analyse(g({ certificatemappingmethodsraw: 4 }), ['ADCSESC6a', 'ADCSESC6b'])).toEqual([
      `U ADCSESC6a ${D}`,
      `U ADCSESC6b ${D}`,
    ]);
    expect(await analyse(g({ certificatemappingmethodsraw: 24 }), ['ADCSESC6a', 'ADCSESC6b'])).toEqual([`U ADCSESC6a ${D}`]);
  });

  it('ESC6a leaves users out, gMSAs included, when the template requires a DNS name; groups stay', async () => {
    const g = merge(pki({ ca: { isuserspecifiessanenabled: true, isuserspecifiessanenabledcollected: true } }), {
      nodes: [
        ['T', 'CertTemplate', template({ nosecurityextension: true, subjectaltrequiredns: true })],
        ['SVC', 'User', { domainsid: D, gmsa: true }],
        ...users('U'),
        ...groups('G'),
      ],
      edges: ['T PublishedTo CA', ...['U', 'SVC', 'G'].flatMap((p) => [`${p} Enroll T`, `${p} Enroll CA`])],
    });
    expect(await analyse(g, ['ADCSESC6a'])).toEqual([`G ADCSESC6a ${D}`]);
  });

  const esc9or10 = (tplExtra: Record<string, unknown>, dc: Record<string, unknown>, victim: 'User' | 'Computer') =>
    merge(pki({ dc }), {
      nodes: [['T', 'CertTemplate', template(tplExtra)], ['VICTIM', victim, { domainsid: D }], ...users('ATTACKER')],
      edges: ['T PublishedTo CA', 'VICTIM Enroll T', 'VICTIM Enroll CA', 'ATTACKER GenericWrite VICTIM'],
    });

  it('ESC9a: whoever can rewrite an enrolling victim, where a DC has weak certificate binding', async () => {
    const t9 = { nosecurityextension: true, subjectaltrequireupn: true };
    expect(await analyse(esc9or10(t9, { strongcertificatebindingenforcementraw: 1 }, 'User'), ['ADCSESC9a', 'ADCSESC9b'])).toEqual([
      `ATTACKER ADCSESC9a ${D}`,
    ]);
    expect(await analyse(esc9or10(t9, { strongcertificatebindingenforcementraw: 2 }, 'User'), ['ADCSESC9a'])).toEqual([]);
  });

  it('ESC9b and ESC10b take computer victims of DNS-requiring templates', async () => {
    const t9b = { nosecurityextension: true, subjectaltrequiredns: true };
    expect(await analyse(esc9or10(t9b, { strongcertificatebindingenforcementraw: 0 }, 'Computer'), ['ADCSESC9b'])).toEqual([
      `ATTACKER ADCSESC9b ${D}`,
    ]);
    expect(await analyse(esc9or10(t9b, { strongcertificatebindingenforcementraw: 0 }, 'User'), ['ADCSESC9b'])).toEqual([]);
    expect(
      await analyse(esc9or10({ subjectaltrequiredns: true }, { certificatemappingmethodsraw: 4 }, 'Computer'), ['ADCSESC10b']),
    ).toEqual([`ATTACKER ADCSESC10b ${D}`]);
  });

  it('ESC10a needs UPN mapping on a DC and a UPN-requiring template', async () => {
    const t10 = { subjectaltrequireupn: true };
    expect(await analyse(esc9or10(t10, { certificatemappingmethodsraw: 4 }, 'User'), ['ADCSESC10a'])).toEqual([`ATTACKER ADCSESC10a ${D}`]);
    expect(await analyse(esc9or10(t10, { certificatemappingmethodsraw: -1 }, 'User'), ['ADCSESC10a'])).toEqual([]);
  });

  it('ExtendedByPolicy and ESC13 to the group linked to the issuance policy', async () => {
    const g = merge(pki(), {
      nodes: [
        ['T', 'CertTemplate', template({ certificatepolicy: ['1.2.3.4'] })],
        ['POLICY', 'IssuancePolicy', { certtemplateoid: '1.2.3.4', domainsid: D }],
        ['FOREIGN', 'IssuancePolicy', { certtemplateoid: '1.2.3.4', domainsid: 'S-1-5-21-9-9-9' }],
        ...groups('G'),
        ...users('U'),
      ],
      edges: ['T PublishedTo CA', 'POLICY OIDGroupLink G', 'U Enroll T', 'U Enroll CA'],
    });
    expect(await analyse(g, ['ExtendedByPolicy', 'ADCSESC13'])).toEqual(['T ExtendedByPolicy POLICY', 'U ADCSESC13 G']);
  });

  it('is idempotent, and derived edges of a removed input disappear on the next run', async () => {
    const kinds = ['GoldenCert', 'ADCSESC1', 'EnterpriseCAFor'];
    const first = await analyse(esc1(), kinds);
    const store = new PgGraphStore(db());
    await runAnalysis(store);
    expect(await derived(db(), kinds)).toEqual(first);
    const g = esc1();
    g.edges = g.edges.filter((e) => typeof e !== 'string' || !e.startsWith('ENROLLERS Enroll '));
    await load(db(), g);
    await runAnalysis(store);
    expect(await derived(db(), kinds)).toEqual(['CA EnterpriseCAFor ROOT', `HOST GoldenCert ${D}`]);
  });
});
