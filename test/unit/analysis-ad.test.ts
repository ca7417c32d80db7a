import { inDomain, merge, useAnalysis, type SmallGraph } from './analysis-graph';

/**
 * AD rules other than ADCS on small graphs (after BloodHound's NTLM, local group and domain harnesses): which
 * edges must and must not appear.
 */
const D = 'S-1-5-21-2-2-2';
const { computers, groups, users } = inDomain(D);
const AU = `TEST.LOCAL-S-1-5-11`;
const base = (): SmallGraph => ({
  nodes: [
    [D, 'Domain', { domainsid: D, functionallevel: '2016' }],
    [AU, 'Group', { domainsid: D }],
  ],
  edges: [],
});
const add = (g: SmallGraph, nodes: SmallGraph['nodes'], edges: SmallGraph['edges']): SmallGraph => merge(g, { nodes, edges });

describe('AD analysis rules', () => {
  const { analyse } = useAnalysis();

  it('local groups: one group per RID and computer grants rights; a second -544 group grants nothing', async () => {
    const C = `${D}-1000`;
    const g: SmallGraph = {
      nodes: [
        [C, 'Computer', { domainsid: D }],
        [`${C}-544`, 'Group', {}],
        [`${C}-X-544`, 'Group', {}], // another local group ending in -544 on the same computer
        [`${C}-580`, 'Group', {}],
        ...users('ALICE', 'MALLORY', 'BOB'),
      ],
      edges: [
        `${C}-544 LocalToComputer ${C}`,
        `${C}-X-544 LocalToComputer ${C}`,
        `${C}-580 LocalToComputer ${C}`,
        `ALICE MemberOfLocalGroup ${C}-544`,
        `MALLORY MemberOfLocalGroup ${C}-X-544`,
        `BOB MemberOfLocalGroup ${C}-580`,
      ],
    };
    expect(await analyse(g, ['AdminTo', 'CanPSRemote'])).toEqual([`ALICE AdminTo ${C}`, `BOB CanPSRemote ${C}`]);
  });

  it('local groups: what the computer reported wins over the group a GPO implies; local accounts get no rights', async () => {
    // A DC reports the domain's BUILTIN Administrators as its local group; a GPO whose changes list the DC among
    // its affected computers implies a bare `<DC SID>-544` group (as ingest writes it). The reported group counts.
    const DC = `${D}-1000`;
    const SERVER = `${D}-1103`;
    const BUILTIN = 'TEST.LOCAL-S-1-5-32-544';
    const g = (reportedName?: string): SmallGraph => ({
      nodes: [
        [DC, 'Computer', { domainsid: D }],
        [SERVER, 'Computer', { domainsid: D }],
        [`${DC}-544`, 'ADLocalGroup', { name: undefined }],
        [BUILTIN, 'Group', { name: reportedName }],
        [`${SERVER}-544`, 'ADLocalGroup', { name: undefined }],
        [`${SERVER}-555`, 'ADLocalGroup', {}],
        ['LOCALADMIN', 'ADLocalUser', {}],
        ...groups('DOMAIN_ADMINS'),
        ...users('GPO_ADMIN'),
      ],
      edges: [
        `${DC}-544 LocalToComputer ${DC}`,
        `${BUILTIN} LocalToComputer ${DC}`,
        `${SERVER}-544 LocalToComputer ${SERVER}`,
        `${SERVER}-555 LocalToComputer ${SERVER}`,
        `GPO_ADMIN MemberOfLocalGroup ${SERVER}-555`,
        `LOCALADMIN MemberOfLocalGroup ${SERVER}-555`,
        `GPO_ADMIN MemberOfLocalGroup ${DC}-544`,
        `GPO_ADMIN MemberOfLocalGroup ${SERVER}-544`,
        `DOMAIN_ADMINS MemberOfLocalGroup ${BUILTIN}`,
        `LOCALADMIN MemberOfLocalGroup ${BUILTIN}`,
      ],
    });
    const expected = [`DOMAIN_ADMINS AdminTo ${DC}`, `GPO_ADMIN AdminTo ${SERVER}`, `GPO_ADMIN CanRDP ${SERVER}`];
    expect(await analyse(g('ADMINISTRATORS@TEST.LOCAL'), ['AdminTo', 'CanRDP'])).toEqual(expected);
    // Without the domain's groups file the reported group has no name (SharpHound names it IGNOREME): it still wins.
    expect(await analyse(g(undefined), ['AdminTo', 'CanRDP'])).toEqual(expected);
  });

  it('CoerceAndRelayNTLMToSMB: a computer that may send NTLM is admin of a target without SMB signing', async () => {
    const g = (relayer: Record<string, unknown>, target: Record<string, unknown>) =>
      add(
        base(),
        [
          ['RELAYER', 'Computer', { domainsid: D, restrictoutboundntlm: false, ...relayer }],
          ['TARGET', 'Computer', { domainsid: D, smbsigning: false, ...target }],
          ...groups('ADMINS'),
          ['TARGET-544', 'Group', {}],
        ],
        ['RELAYER MemberOf ADMINS', 'TARGET-544 LocalToComputer TARGET', 'ADMINS MemberOfLocalGroup TARGET-544'],
      );
    expect(await analyse(g({}, {}), ['CoerceAndRelayNTLMToSMB'])).toEqual([`${AU} CoerceAndRelayNTLMToSMB TARGET`]);
    expect(await analyse(g({}, { smbsigning: true }), ['CoerceAndRelayNTLMToSMB'])).toEqual([]);
    expect(await analyse(g({ restrictoutboundntlm: true }, {}), ['CoerceAndRelayNTLMToSMB'])).toEqual([]);
  });

  it('CoerceAndRelayNTLMToLDAP(S): WebClient running, a DC without LDAP signing / LDAPS channel binding', async () => {
    const g = (dc: Record<string, unknown>, victim: Record<string, unknown> = {}) =>
      add(
        base(),
        [
          ['DC', 'Computer', { domainsid: D, isdc: true, ...dc }],
          ['WS', 'Computer', { domainsid: D, restrictoutboundntlm: false, webclientrunning: true, ...victim }],
        ],
        [],
      );
    const kinds = ['CoerceAndRelayNTLMToLDAP', 'CoerceAndRelayNTLMToLDAPS'];
    expect(await analyse(g({ ldapsigning: false, ldapavailable: true, ldapsavailable: true, ldapsepa: false }), kinds)).toEqual([
      `${AU} CoerceAndRelayNTLMToLDAP WS`,
      `${AU} CoerceAndRelayNTLMToLDAPS WS`,
    ]);
    expect(await analyse(g({ ldapsigning: true, ldapavailable: true, ldapsavailable: true, ldapsepa: true }), kinds)).toEqual([]);
    expect(await analyse(g({ ldapsigning: false, ldapavailable: true }, { webclientrunning: false }), kinds)).toEqual([]);
  });

  it('Protected Users stops relaying from its computers on a 2012R2+ domain', async () => {
    const g = add(
      base(),
      [
        ['DC', 'Computer', { domainsid: D, isdc: true, ldapsigning: false, ldapavailable: true }],
        ['WS', 'Computer', { domainsid: D, restrictoutboundntlm: false, webclientrunning: true }],
        ...groups(`${D}-525`),
      ],
      [`WS MemberOf ${D}-525`],
    );
    expect(await analyse(g, ['CoerceAndRelayNTLMToLDAP'])).toEqual([]);
    g.nodes[0] = [D, 'Domain', { domainsid: D, functionallevel: '2012' }];
    expect(await analyse(g, ['CoerceAndRelayNTLMToLDAP'])).toEqual([`${AU} CoerceAndRelayNTLMToLDAP WS`]);
  });

  it('CoerceAndRelayNTLMToADCS: an unprotected computer enrolling on an authentication template at a CA with a vulnerable endpoint', async () => {
    const g = (endpoint: boolean) =>
      add(
        base(),
        [
          ['CA', 'EnterpriseCA', { certthumbprint: 'AA', domainsid: D, hasvulnerableendpoint: endpoint }],
          ['ROOT', 'RootCA', { certthumbprint: 'AA', domainsid: D }],
          ['NTAUTH', 'NTAuthStore', { certthumbprints: ['AA'], domainsid: D }],
          ...computers('HOST'),
          ['T', 'CertTemplate', { requiresmanagerapproval: false, authenticationenabled: true, schemaversion: 1 }],
          ['WS', 'Computer', { domainsid: D, restrictoutboundntlm: false }],
        ],
        [`ROOT RootCAFor ${D}`, `NTAUTH NTAuthStoreFor ${D}`, 'HOST HostsCAService CA', 'T PublishedTo CA', 'WS Enroll T', 'WS Enroll CA'],
      );
    expect(await analyse(g(true), ['CoerceAndRelayNTLMToADCS'])).toEqual([`${AU} CoerceAndRelayNTLMToADCS WS`]);
    expect(await analyse(g(false), ['CoerceAndRelayNTLMToADCS'])).toEqual([]);
  });

  it('ProtectAdminGroups from the AdminSDHolder to protected principals of its domain only', async () => {
    const g: SmallGraph = {
      nodes: [
        [D, 'Domain', { domainsid: D, collected: true }],
        ['HOLDER', 'Container', { domainsid: D, distinguishedname: 'CN=AdminSDHolder,CN=System,DC=TEST,DC=LOCAL' }],
        ['DA', 'Group', { domainsid: D, adminsdholderprotected: true }],
        ['USER', 'User', { domainsid: D, adminsdholderprotected: false }],
        ['OTHER', 'User', { domainsid: 'S-1-5-21-9-9-9', adminsdholderprotected: true }],
      ],
      edges: [],
    };
    expect(await analyse(g, ['ProtectAdminGroups'])).toEqual(['HOLDER ProtectAdminGroups DA']);
  });

  it('HasTrustKeys from a collected domain to its trust account in each domain it trusts', async () => {
    const T = 'S-1-5-21-3-3-3';
    const g: SmallGraph = {
      nodes: [
        [D, 'Domain', { domainsid: D, collected: true, netbios: 'TEST' }],
        [T, 'Domain', { domainsid: T }],
        ['TRUSTACCT', 'User', { domainsid: T, samaccountname: 'TEST$' }],
        ['NOTIT', 'User', { domainsid: D, samaccountname: 'TEST$' }],
      ],
      edges: [`${D} CrossForestTrust ${T}`],
    };
    expect(await analyse(g, ['HasTrustKeys'])).toEqual([`${D} HasTrustKeys TRUSTACCT`]);
  });

  it('GPOAppliesTo: an enforced link reaches through an OU that blocks inheritance, a plain link does not', async () => {
    const g: SmallGraph = {
      nodes: [
        [D, 'Domain', { domainsid: D }],
        ['BLOCKING', 'OU', { domainsid: D, blocksinheritance: true }],
        ['OPEN', 'OU', { domainsid: D, blocksinheritance: false }],
        ['ENFORCED', 'GPO', { domainsid: D }],
        ['PLAIN', 'GPO', { domainsid: D }],
        ...users('ALICE'),
        ...computers('PC'),
      ],
      edges: [
        `${D} Contains BLOCKING`,
        `${D} Contains OPEN`,
        'BLOCKING Contains ALICE',
        'OPEN Contains PC',
        [`ENFORCED GPLink ${D}`, { enforced: true }],
        [`PLAIN GPLink ${D}`, { enforced: false }],
      ],
    };
    expect(await analyse(g, ['GPOAppliesTo'])).toEqual([
      'ENFORCED GPOAppliesTo ALICE',
      'ENFORCED GPOAppliesTo PC',
      'PLAIN GPOAppliesTo PC',
    ]);
  });
});
