import { SharpHoundConverter } from '../../../src/ingest/sharphound';

const NOW = '2026-01-01T00:00:00.000Z';
const convert = (type: string, item: unknown) => new SharpHoundConverter(NOW).convert(type, item);
const edges = (c: ReturnType<typeof convert>, kind?: string) =>
  c.edges.filter((e) => !kind || e.kind === kind).map((e) => `${e.start} -${e.kind}-> ${e.end}`);
const D = 'S-1-5-21-1-2-3';
const ace = (sid: string, right: string, extra: Record<string, unknown> = {}) => ({
  PrincipalSID: sid,
  PrincipalType: 'Group',
  RightName: right,
  IsInherited: false,
  ...extra,
});

describe('SharpHound conversion as BloodHound converts it', () => {
  describe('EnterpriseCA', () => {
    const ca = {
      ObjectIdentifier: 'CA-GUID',
      Properties: { name: 'CA@TESTLAB.LOCAL' },
      HostingComputer: `${D}-1001`,
      EnabledCertTemplates: [
        { ObjectIdentifier: 'T1', ObjectType: 'CertTemplate' },
        { ObjectIdentifier: 'T2', ObjectType: 'CertTemplate' },
      ],
      Aces: [
        ace(`${D}-512`, 'Owns'),
        ace(`${D}-519`, 'ManageCA'),
        ace(`${D}-1001`, 'Enroll', { PrincipalType: 'Computer' }),
        ace(`${D}-1109`, 'Enroll', { PrincipalType: 'User' }),
      ],
      HttpEnrollmentEndpoints: [
        { Collected: true, Result: { Url: 'http://ca/certsrv', ADCSWebEnrollmentHTTP: true } },
        { Collected: true, Result: { Url: 'https://ca/certsrv', ADCSWebEnrollmentHTTPS: true, ADCSWebEnrollmentEPA: false } },
      ],
      CARegistryData: {
        CASecurity: {
          Collected: true,
          Data: [
            ace(`${D}-544`, 'Owns'),
            ace(`${D}-1105`, 'ManageCertificates', { PrincipalType: 'User' }),
            ace('CA-HOST-544', 'ManageCA', { PrincipalType: 'LocalGroup' }),
          ],
        },
        EnrollmentAgentRestrictions: {
          Collected: true,
          Restrictions: [
            { AccessType: 'AccessAllowedCallback', Agent: { ObjectIdentifier: `${D}-1106`, ObjectType: 'User' }, AllTemplates: true },
            {
              AccessType: 'AccessAllowedCallback',
              Agent: { ObjectIdentifier: `${D}-1107`, ObjectType: 'Group' },
              AllTemplates: false,
              Template: { ObjectIdentifier: 'T9', ObjectType: 'CertTemplate' },
            },
            { AccessType: 'AccessDeniedCallback', Agent: { ObjectIdentifier: `${D}-1108`, ObjectType: 'User' }, AllTemplates: true },
          ],
        },
        IsUserSpecifiesSanEnabled: { Collected: true, Value: true },
        RoleSeparationEnabled: { Collected: true, Value: false },
      },
    };
    const c = convert('enterprisecas', ca);
    const props = c.nodes[0]!.properties;

    it('CASecurity grants CA rights but is never the owner', () => {
      expect(props.ownersid).toBe(`${D}-512`);
      expect([...new Set(edges(c, 'OwnsRaw'))]).toEqual([`${D}-512 -OwnsRaw-> CA-GUID`]); // the store merges repeats
      expect(edges(c)).toContain(`${D}-1105 -ManageCertificates-> CA-GUID`);
      expect(edges(c)).toContain(`${D}-519 -ManageCA-> CA-GUID`);
      expect(edges(c).some((e) => e.startsWith('CA-HOST-544'))).toBe(false); // local-group principals are left out
    });

    it("keeps the CA object's own ACL whole next to CASecurity, Enroll of principals other than the host included", () => {
      // BloodHound's convertEnterpriseCAData parses every ACE of the object before handleEnterpriseCASecurity adds
      // the service's (whose own-ACL filter to the hosting computer therefore removes nothing).
      expect([...new Set(edges(c, 'Enroll'))].sort()).toEqual([`${D}-1001 -Enroll-> CA-GUID`, `${D}-1109 -Enroll-> CA-GUID`]);
      expect(edges(c, 'ManageCA')).toContain(`${D}-519 -ManageCA-> CA-GUID`);
    });

    it('EnrollmentAgentRestrictions become DelegatedEnrollmentAgent edges and properties', () => {
      expect(edges(c, 'DelegatedEnrollmentAgent').sort()).toEqual([
        `${D}-1106 -DelegatedEnrollmentAgent-> T1`,
        `${D}-1106 -DelegatedEnrollmentAgent-> T2`,
        `${D}-1107 -DelegatedEnrollmentAgent-> T9`,
      ]);
      expect(props).toMatchObject({
        hasenrollmentagentrestrictions: true,
        isuserspecifiessanenabled: true,
        roleseparationenabled: false,
        httpenrollmentendpoints: ['http://ca/certsrv'],
        httpsenrollmentendpoints: ['https://ca/certsrv'],
        hasvulnerableendpoint: true,
      });
    });
  });

  it('DCRegistryData: certificate mapping methods and strong binding enforcement, raw and readable', () => {
    const c = convert('computers', {
      ObjectIdentifier: `${D}-1000`,
      IsDC: true,
      DomainSID: D,
      Properties: { name: 'DC01.TESTLAB.LOCAL', ldapenabled: true },
      DCRegistryData: {
        CertificateMappingMethods: { Collected: true, Value: 0x1f },
        StrongCertificateBindingEnforcement: { Collected: true, Value: 1 },
      },
      SmbInfo: { Collected: true, Result: { SigningEnabled: true } },
      IsWebClientRunning: { Collected: false, Result: true },
    });
    expect(c.nodes[0]!.properties).toMatchObject({
      certificatemappingmethodsraw: 31,
      certificatemappingmethods: expect.arrayContaining(['0x04: User principal name (UPN/SAN)']),
      strongcertificatebindingenforcementraw: 1,
      strongcertificatebindingenforcement: 'Compatibility mode',
      smbsigning: true,
      ldapavailable: true,
    });
    expect(c.nodes[0]!.properties).not.toHaveProperty('webclientrunning');
    expect(c.nodes[0]!.properties).not.toHaveProperty('ldapenabled');
    expect(edges(c, 'DCFor')).toEqual([`${D}-1000 -DCFor-> ${D}`]);
  });

  it.each(['users', 'computers'])('v5 %s keep domainsid and unconstraineddelegation under Properties only: CoerceToTGT', (type) => {
    const c = convert(type, { ObjectIdentifier: `${D}-1200`, Properties: { domainsid: D, unconstraineddelegation: true } });
    expect(edges(c, 'CoerceToTGT')).toEqual([`${D}-1200 -CoerceToTGT-> ${D}`]);
    // Properties win over the top-level field, as BloodHound reads them.
    const v6 = convert(type, { ObjectIdentifier: `${D}-1201`, DomainSID: D, UnconstrainedDelegation: true, Properties: {} });
    expect(edges(v6, 'CoerceToTGT')).toHaveLength(1);
  });

  it('a DC local group named IGNOREME makes no node (it would rename the BUILTIN group) but keeps its edges', () => {
    const c = convert('computers', {
      ObjectIdentifier: `${D}-1000`,
      LocalGroups: [
        {
          Collected: true,
          Name: 'IGNOREME',
          ObjectIdentifier: 'TESTLAB.LOCAL-S-1-5-32-544',
          Results: [{ ObjectIdentifier: `${D}-512`, ObjectType: 'Group' }],
        },
        {
          Collected: true,
          Name: 'REMOTE DESKTOP USERS@DC01',
          ObjectIdentifier: `${D}-1000-555`,
          Results: [{ ObjectIdentifier: `${D}-513`, ObjectType: 'Group' }],
        },
        {
          Collected: false,
          Name: 'X',
          ObjectIdentifier: `${D}-1000-562`,
          Results: [{ ObjectIdentifier: `${D}-513`, ObjectType: 'Group' }],
        },
      ],
      UserRights: [{ Collected: true, Privilege: 'SeRemoteInteractiveLogonRight', Results: [] }],
    });
    expect(c.nodes.map((n) => n.objectid)).toEqual([`${D}-1000`, `${D}-1000-555`]);
    expect(edges(c, 'MemberOfLocalGroup').sort()).toEqual([
      `${D}-512 -MemberOfLocalGroup-> TESTLAB.LOCAL-S-1-5-32-544`,
      `${D}-513 -MemberOfLocalGroup-> ${D}-1000-555`,
    ]);
    expect(c.nodes[0]!.properties).not.toHaveProperty('hasura'); // a right with no holder is not a URA
  });

  it('trusted domains get name and domainsid; trust attributes as BloodHound reads them', () => {
    const c = convert('domains', {
      ObjectIdentifier: D,
      Properties: { name: 'TESTLAB.LOCAL', machineaccountquota: '10', minpwdlength: 'x' },
      Trusts: [
        {
          TargetDomainSid: 'S-1-5-21-9-9-9',
          TargetDomainName: 'other.local',
          TrustDirection: 'Bidirectional',
          TrustType: 'External',
          TrustAttributes: '4',
          TGTDelegationEnabled: false,
          SidFilteringEnabled: true,
        },
      ],
    });
    expect(c.nodes.find((n) => n.objectid === 'S-1-5-21-9-9-9')!.properties).toMatchObject({
      name: 'OTHER.LOCAL',
      domainsid: 'S-1-5-21-9-9-9',
    });
    expect(c.nodes[0]!.properties).toMatchObject({ machineaccountquota: 10 });
    expect(c.nodes[0]!.properties).not.toHaveProperty('minpwdlength');
    const inbound = c.edges.find((e) => e.start === 'S-1-5-21-9-9-9' && e.kind === 'CrossForestTrust')!;
    expect(inbound.properties).toMatchObject({ trustattributesinbound: 4, tgtdelegation: false, transitive: false });
    expect(c.edges.find((e) => e.start === D && e.kind === 'CrossForestTrust')!.properties).toMatchObject({
      trustattributesoutbound: 4,
      spoofsidhistoryblocked: true,
    });
  });

  it('a site server is ServerIs its computer, under SharpHoundCommon\'s spelling "SeverIs" or the corrected one', () => {
    const site = { ObjectIdentifier: 'SITE', ObjectType: 'Site' };
    for (const key of ['SeverIs', 'ServerIs']) {
      const c = convert('siteservers', {
        ObjectIdentifier: 'server-guid',
        Properties: { name: 'PRIMARY@TESTLAB.LOCAL', dnshostname: 'primary.testlab.local' },
        [key]: { ObjectIdentifier: `${D}-1001`, ObjectType: 'Computer' },
        ContainedBy: site,
        Aces: [],
      });
      expect(c.nodes[0]).toMatchObject({ objectid: 'SERVER-GUID', kinds: ['Base', 'SiteServer'] });
      expect(edges(c)).toEqual([`SITE -Contains-> SERVER-GUID`, `SERVER-GUID -ServerIs-> ${D}-1001`]);
    }
    const subnet = convert('sitesubnets', { ObjectIdentifier: 'net', Properties: { cn: '10.0.0.0/24' }, ContainedBy: site });
    expect(subnet.nodes[0]!.kinds).toEqual(['Base', 'SiteSubnet']);
    const s = convert('sites', {
      ObjectIdentifier: 'site',
      Links: [{ GUID: 'gpo', IsEnforced: true }],
      Aces: [ace(`${D}-519`, 'GenericAll')],
    });
    expect(edges(s)).toEqual(['GPO -GPLink-> SITE', `${D}-519 -GenericAll-> SITE`]);
  });

  it('IssuancePolicy records its linked group (grouplinkid) and GPO status is readable', () => {
    const c = convert('issuancepolicies', { ObjectIdentifier: 'POL', GroupLink: { ObjectIdentifier: `${D}-1300`, ObjectType: 'Group' } });
    expect(c.nodes[0]!.properties.grouplinkid).toBe(`${D}-1300`);
    expect(edges(c, 'OIDGroupLink')).toEqual([`POL -OIDGroupLink-> ${D}-1300`]);
    expect(convert('gpos', { ObjectIdentifier: 'G', Properties: { gpostatus: '3' } }).nodes[0]!.properties).toMatchObject({
      gpostatus: 'Disabled',
      gpostatusraw: '3',
    });
  });

  it('OWNER RIGHTS entries limit what the owner and WriteOwner holders get', () => {
    const c = convert('users', {
      ObjectIdentifier: `${D}-1400`,
      Aces: [
        ace(`${D}-1401`, 'Owns'),
        ace(`${D}-1402`, 'WriteOwner'),
        ace('TESTLAB.LOCAL-S-1-3-4', 'GenericWrite', { IsInherited: true }),
        ace('TESTLAB.LOCAL-S-1-3-4', 'WriteDacl'),
      ],
    });
    expect(edges(c).sort()).toEqual([`${D}-1401 -OwnsLimitedRights-> ${D}-1400`, `${D}-1402 -WriteOwnerLimitedRights-> ${D}-1400`]);
    expect(c.edges.find((e) => e.kind === 'OwnsLimitedRights')!.properties.privileges).toEqual(['GenericWrite', 'WriteDacl']);
    expect(c.edges.find((e) => e.kind === 'WriteOwnerLimitedRights')!.properties.privileges).toEqual(['GenericWrite']);
    const none = convert('users', {
      ObjectIdentifier: `${D}-1410`,
      Properties: { doesanyacegrantownerrights: true, doesanyinheritedacegrantownerrights: false },
      Aces: [ace(`${D}-1401`, 'Owns'), ace(`${D}-1402`, 'WriteOwner')],
    });
    expect(edges(none)).toEqual([`${D}-1402 -WriteOwnerRaw-> ${D}-1410`]);
  });

  it('group members named by distinguished name make no placeholder node', () => {
    const c = convert('groups', {
      ObjectIdentifier: `${D}-1500`,
      Members: [
        { ObjectIdentifier: 'DN=CN=X,DC=TESTLAB,DC=LOCAL', ObjectType: 'Base' },
        { ObjectIdentifier: `${D}-1501`, ObjectType: 'User' },
      ],
    });
    expect(edges(c, 'MemberOf')).toEqual([`${D}-1501 -MemberOf-> ${D}-1500`]);
  });
});
