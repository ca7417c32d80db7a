import type { JsonArrayWriter } from './json-writer.js';

interface AdcsContext {
  file(type: string, fill: (w: JsonArrayWriter) => void): void;
  r(): number;
  sid: string;
  domain: string;
  dc: string;
  /** The computer that hosts the CA service. */
  computerSid: string;
  /** A group that may enroll. */
  groupSid: string;
  acl(n: number): unknown[];
}

const guid = (prefix: string, i: number) => `${prefix}-0000-4000-8000-${String(i).padStart(12, '0')}`;

/**
 * ADCS objects of a small PKI, as SharpHound v6 writes them: a root CA and NTAuth store for the domain, an
 * enterprise CA hosted on a computer, and certificate templates published to it (a few enrollable by a group).
 */
export function generateAdcs(x: AdcsContext): void {
  const templates = Array.from({ length: 12 }, (_, i) => guid('33333333', i));
  const ca = guid('22222222', 0);
  const base = (name: string) => ({
    name: `${name}@${x.domain}`,
    domain: x.domain,
    domainsid: x.sid,
    distinguishedname: `CN=${name},CN=Public Key Services,CN=Services,CN=Configuration,${x.dc}`,
  });
  x.file('rootcas', (w) =>
    w.add({
      ObjectIdentifier: guid('44444444', 0),
      DomainSID: x.sid,
      Properties: { ...base('ROOT-CA'), certthumbprint: 'AB'.repeat(20) },
      Aces: x.acl(2),
    }),
  );
  x.file('ntauthstores', (w) =>
    w.add({ ObjectIdentifier: guid('55555555', 0), DomainSID: x.sid, Properties: base('NTAUTHCERTIFICATES'), Aces: x.acl(2) }),
  );
  x.file('aiacas', (w) => w.add({ ObjectIdentifier: guid('66666666', 0), Properties: base('AIA-CA'), Aces: x.acl(2) }));
  x.file('enterprisecas', (w) =>
    w.add({
      ObjectIdentifier: ca,
      Properties: { ...base('ENTERPRISE-CA'), caname: 'ENTERPRISE-CA', dnshostname: `CA01.${x.domain}` },
      HostingComputer: x.computerSid,
      EnabledCertTemplates: templates.map((t) => ({ ObjectIdentifier: t, ObjectType: 'CertTemplate' })),
      CARegistryData: {
        CASecurity: {
          Collected: true,
          Data: [{ PrincipalSID: `${x.sid}-512`, PrincipalType: 'Group', RightName: 'ManageCA', IsInherited: false }],
        },
        EnrollmentAgentRestrictions: { Collected: true, Restrictions: [] },
        IsUserSpecifiesSanEnabled: { Collected: true, Value: false },
        RoleSeparationEnabled: { Collected: true, Value: false },
      },
      Aces: [{ PrincipalSID: x.groupSid, PrincipalType: 'Group', RightName: 'Enroll', IsInherited: false }, ...x.acl(2)],
    }),
  );
  x.file('certtemplates', (w) => {
    templates.forEach((t, i) =>
      w.add({
        ObjectIdentifier: t,
        Properties: {
          ...base(`TEMPLATE${i}`),
          enrolleesuppliessubject: i === 0,
          authenticationenabled: i < 4,
          requiresmanagerapproval: false,
          schemaversion: 2,
        },
        Aces: [{ PrincipalSID: x.groupSid, PrincipalType: 'Group', RightName: 'Enroll', IsInherited: false }, ...x.acl(2)],
      }),
    );
  });
}
