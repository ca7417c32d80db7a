import { useTestApp } from '../helpers/app';
import { inDomain, ingestAsAdmin, sharphound } from '../helpers/upload';

// One domain with a complete, vulnerable PKI: a root CA, an enterprise CA trusted in NTAuth and chained to the
// root, hosted on a computer, publishing a template that lets enrollees supply the subject (ESC1).
const D = 'S-1-5-21-7-7-7';
const [ENROLLERS, USER, HOST] = ['1200', '1300', '1400'].map((rid) => `${D}-${rid}`);
// The PKI objects: root CA, NTAuth store, enterprise CA, the ESC1 template and one needing manager approval.
const [ROOT, STORE, CA, TEMPLATE, SAFE_TEMPLATE] = [...'ABCDE'].map((c) => `A1B2C3D4-0000-0000-0000-00000000000${c}`);
const enroll = (sid: string) => ({ PrincipalSID: sid, PrincipalType: 'Group', RightName: 'Enroll', IsInherited: false });
const props = inDomain('CORP.TEST', D);

const FILES: [string, string][] = [
  ['domains.json', sharphound('domains', [{ ObjectIdentifier: D, Properties: props('CORP.TEST'), Aces: [] }])],
  ['users.json', sharphound('users', [{ ObjectIdentifier: USER, Properties: props('ALICE'), Aces: [] }])],
  [
    'groups.json',
    sharphound('groups', [
      { ObjectIdentifier: ENROLLERS, Properties: props('ENROLLERS'), Members: [{ ObjectIdentifier: USER, ObjectType: 'User' }], Aces: [] },
    ]),
  ],
  ['computers.json', sharphound('computers', [{ ObjectIdentifier: HOST, Properties: props('PKI01.CORP.TEST'), DomainSID: D, Aces: [] }])],
  [
    'rootcas.json',
    sharphound('rootcas', [
      { ObjectIdentifier: ROOT, DomainSID: D, Properties: props('ROOT-CA', { certthumbprint: 'AAA', certchain: ['AAA'] }), Aces: [] },
    ]),
  ],
  [
    'ntauthstores.json',
    sharphound('ntauthstores', [
      { ObjectIdentifier: STORE, DomainSID: D, Properties: props('NTAUTH', { certthumbprints: ['BBB'] }), Aces: [] },
    ]),
  ],
  [
    'enterprisecas.json',
    sharphound('enterprisecas', [
      {
        ObjectIdentifier: CA,
        DomainSID: D,
        HostingComputer: HOST,
        Properties: props('ISSUING-CA', { certthumbprint: 'BBB', certchain: ['BBB', 'AAA'] }),
        EnabledCertTemplates: [
          { ObjectIdentifier: TEMPLATE, ObjectType: 'CertTemplate' },
          { ObjectIdentifier: SAFE_TEMPLATE, ObjectType: 'CertTemplate' },
        ],
        CARegistryData: { CASecurity: { Collected: true, Data: [enroll(ENROLLERS)] } },
        Aces: [],
      },
    ]),
  ],
  [
    'certtemplates.json',
    sharphound('certtemplates', [
      {
        ObjectIdentifier: TEMPLATE,
        Properties: props('USERSUPPLIED', {
          enrolleesuppliessubject: true,
          authenticationenabled: true,
          requiresmanagerapproval: false,
          schemaversion: 2,
          authorizedsignatures: 0,
        }),
        Aces: [enroll(ENROLLERS)],
      },
      {
        ObjectIdentifier: SAFE_TEMPLATE,
        Properties: props('NEEDSAPPROVAL', {
          enrolleesuppliessubject: true,
          authenticationenabled: true,
          requiresmanagerapproval: true,
          schemaversion: 2,
        }),
        Aces: [enroll(ENROLLERS)],
      },
    ]),
  ],
];

describe('ADCS analysis on collected certificate data', () => {
  const t = useTestApp();

  it('derives the PKI edges, GoldenCert for the CA host and ESC1 for the smallest set of enrollers', async () => {
    await ingestAsAdmin(t, FILES);
    const kinds = ['TrustedForNTAuth', 'EnterpriseCAFor', 'IssuedSignedBy', 'GoldenCert', 'ADCSESC1'];
    const edges = await t.infra.graphStore.edgesOfKinds(kinds);
    const nodes = new Map(
      (await t.infra.graphStore.nodesByIds([...new Set(edges.flatMap((e) => [e.startId, e.endId]))])).map((n) => [n.id, n.objectid]),
    );
    const got = edges.map((e) => `${nodes.get(e.startId)} ${e.kind} ${nodes.get(e.endId)}`).sort();
    expect(got).toEqual(
      [
        `${CA} TrustedForNTAuth ${STORE}`,
        // no EnterpriseCAFor: the issuing CA's own thumbprint (BBB) is not published as a root or AIA CA; it
        // chains to the root through IssuedSignedBy
        `${CA} IssuedSignedBy ${ROOT}`,
        `${HOST} GoldenCert ${D}`,
        // the group has both enrollment rights; its member is covered by it, and the template needing
        // manager approval adds nothing
        `${ENROLLERS} ADCSESC1 ${D}`,
      ].sort(),
    );
  });
});
