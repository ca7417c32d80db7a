import { cypher, type Section } from './types.js';

const AD = 'Active Directory' as const;

/** Who can enroll in a template that an enterprise CA publishes, and the template itself bound as `ct`. */
const ENROLLABLE = 'MATCH p = (:Base)-[:Enroll|GenericAll|AllExtendedRights]->(ct:CertTemplate)-[:PublishedTo]->(ca:EnterpriseCA)';
/** No manager approval and no authorized signatures needed: the request is issued as it is sent. */
const ISSUED_AS_SENT = 'ct.requiresmanagerapproval = false AND (ct.authorizedsignatures = 0 OR ct.schemaversion = 1)';

/** AD Certificate Services (the ESC abuses), and NTLM coercion and relay. */
export const ADCS_AND_NTLM: Section[] = [
  {
    category: 'Active Directory Certificate Services',
    platform: AD,
    queries: [
      {
        id: 'adcs-pki-hierarchy',
        name: 'PKI hierarchy',
        description: 'Certificate authorities, their hosts and how they chain to the domains that trust them.',
        query: cypher(
          'MATCH p = ()-[:HostsCAService|IssuedSignedBy|EnterpriseCAFor|RootCAFor|TrustedForNTAuth|NTAuthStoreFor*1..]->(:Domain)',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-public-key-services',
        name: 'Public Key Services container',
        description: 'What the Public Key Services container of the configuration partition holds.',
        query: cypher(
          'MATCH p = (c:Container)-[:Contains*1..]->(:Base)',
          "WHERE c.distinguishedname STARTS WITH 'CN=PUBLIC KEY SERVICES,CN=SERVICES,CN=CONFIGURATION,DC='",
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-enrollment-rights',
        name: 'Enrollment rights on published certificate templates',
        description: 'Who can enroll in each template an enterprise CA publishes.',
        query: cypher(ENROLLABLE, 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc1',
        name: 'ESC1: principals that can enroll with a subject of their choice',
        description: 'ADCSESC1 edges: enrollment in a template that takes the subject from the request and allows domain authentication.',
        query: cypher('MATCH p = (:Base)-[:ADCSESC1]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc1-templates',
        name: 'Enrollment rights on published ESC1 certificate templates',
        description: 'Templates where the enrollee supplies the subject, authentication is allowed and nothing stops issuance.',
        query: cypher(
          ENROLLABLE,
          `WHERE ct.enrolleesuppliessubject = true AND ct.authenticationenabled = true AND ${ISSUED_AS_SENT}`,
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-esc2-templates',
        name: 'Enrollment rights on published ESC2 certificate templates',
        description: 'Templates for any purpose (no EKU, or the Any Purpose EKU) that nothing stops issuing.',
        query: cypher(
          ENROLLABLE,
          `WHERE ${ISSUED_AS_SENT}`,
          "AND (ct.effectiveekus IS NULL OR size(ct.effectiveekus) = 0 OR ct.effectiveekus = [''] OR '2.5.29.37.0' IN ct.effectiveekus)",
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-esc3',
        name: 'ESC3: enrollment agent abuse',
        description: 'ADCSESC3 edges: enrollment as an agent, then on behalf of any user.',
        query: cypher('MATCH p = (:Base)-[:ADCSESC3]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc3-templates',
        name: 'Enrollment rights on published enrollment agent certificate templates',
        description: 'Templates that issue Certificate Request Agent certificates (or certificates for any purpose).',
        query: cypher(
          ENROLLABLE,
          "WHERE '1.3.6.1.4.1.311.20.2.1' IN ct.effectiveekus OR '2.5.29.37.0' IN ct.effectiveekus OR size(ct.effectiveekus) = 0",
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-esc4',
        name: 'ESC4: control of a certificate template',
        description: 'ADCSESC4 edges: principals that can rewrite a published template into an ESC1 one.',
        query: cypher('MATCH p = (:Base)-[:ADCSESC4]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc5',
        name: 'Compromising permissions on ADCS nodes (ESC5)',
        description: 'Control of objects under Public Key Services by principals other than the built-in administrators.',
        query: cypher(
          'MATCH p = (n:Base)-[:Owns|WriteOwner|WriteDacl|GenericAll|GenericWrite]->(m:Base)',
          "WHERE m.distinguishedname CONTAINS 'PUBLIC KEY SERVICES'",
          "AND NOT n.objectid ENDS WITH '-512' AND NOT n.objectid ENDS WITH '-519' AND NOT n.objectid ENDS WITH '-544'",
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-esc6',
        name: 'ESC6: enrollment where the CA takes a subject alternative name from the request',
        description: 'ADCSESC6a and ADCSESC6b edges, and templates published to CAs with EDITF_ATTRIBUTESUBJECTALTNAME2.',
        query: cypher('MATCH p = (:Base)-[:ADCSESC6a|ADCSESC6b]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc6-templates',
        name: 'Enrollment rights on certificate templates published to Enterprise CA with User Specified SAN enabled (ESC6)',
        description: 'Templates published to an enterprise CA that honours a requested subject alternative name.',
        query: cypher(ENROLLABLE, 'WHERE ca.isuserspecifiessanenabled = true', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc7',
        name: 'CA Administrators and CA Managers (ESC7)',
        description: 'Principals that manage a CA or its certificates.',
        query: cypher('MATCH p = (:Base)-[:ManageCertificates|ManageCA]->(:EnterpriseCA)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc8-templates',
        name: 'Enrollment rights on certificate templates published to Enterprise CA with vulnerable HTTP(S) endpoint (ESC8)',
        description: 'Templates published to a CA whose web enrollment accepts relayed NTLM.',
        query: cypher(ENROLLABLE, 'WHERE ca.hasvulnerableendpoint = true', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc9',
        name: 'ESC9: templates without the security extension',
        description: 'ADCSESC9a and ADCSESC9b edges: a certificate without the SID extension maps by UPN or DNS name.',
        query: cypher('MATCH p = (:Base)-[:ADCSESC9a|ADCSESC9b]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc9-templates',
        name: 'Enrollment rights on published certificate templates with no security extension',
        description: 'Templates whose certificates carry no SID security extension.',
        query: cypher(ENROLLABLE, 'WHERE ct.nosecurityextension = true', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-esc10',
        name: 'ESC10: weak certificate mapping on domain controllers',
        description: 'ADCSESC10a and ADCSESC10b edges: weak Schannel or Kerberos certificate mapping.',
        query: cypher('MATCH p = (:Base)-[:ADCSESC10a|ADCSESC10b]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-weak-certificate-binding',
        name: 'Domain controllers with weak certificate binding enabled',
        description: 'Domain controllers that do not enforce strong certificate binding (0 disabled, 1 compatibility).',
        query: cypher(
          'MATCH p = (dc:Computer)-[:DCFor]->(:Domain)',
          'WHERE dc.strongcertificatebindingenforcementraw = 0 OR dc.strongcertificatebindingenforcementraw = 1',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-upn-certificate-mapping',
        name: 'Domain controllers with UPN certificate mapping enabled',
        description: 'Domain controllers whose Schannel CertificateMappingMethods includes UPN mapping (bit 0x4).',
        query: cypher(
          'MATCH p = (dc:Computer)-[:DCFor]->(:Domain)',
          'WHERE dc.certificatemappingmethodsraw IN [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31]',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-esc13',
        name: 'ESC13: issuance policies linked to groups',
        description: 'ADCSESC13 edges: a certificate whose issuance policy is linked to a group grants that group.',
        query: cypher('MATCH p = (:Base)-[:ADCSESC13]->(:Group)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-oid-group-link',
        name: 'Enrollment rights on CertTemplates with OIDGroupLink',
        description: 'Templates whose issuance policy is linked to a group (ESC13).',
        query: cypher(
          'MATCH p = (:Base)-[:Enroll|GenericAll|AllExtendedRights]->(:CertTemplate)-[:ExtendedByPolicy]->(:IssuancePolicy)-[:OIDGroupLink]->(:Group)',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-issuance-policy-permissions',
        name: 'Non-default permissions on IssuancePolicy nodes',
        description: 'Control of issuance policies by principals other than Domain Admins and Enterprise Admins.',
        query: cypher(
          'MATCH p = (s:Base)-[:GenericAll|GenericWrite|Owns|WriteOwner|WriteDacl]->(:IssuancePolicy)',
          "WHERE NOT s.objectid ENDS WITH '-512' AND NOT s.objectid ENDS WITH '-519'",
          'RETURN p',
          'LIMIT 1000',
        ),
      },
      {
        id: 'adcs-golden-certificate',
        name: 'Golden certificate: hosts of an enterprise CA',
        description: 'GoldenCert edges: whoever controls a CA host can forge certificates for any principal.',
        query: cypher('MATCH p = (:Computer)-[:GoldenCert]->(:Domain)', 'RETURN p', 'LIMIT 1000'),
      },
      {
        id: 'adcs-all-esc-edges',
        name: 'All ADCS ESC privilege escalation edges',
        description: 'Every ADCS escalation edge analysis found.',
        query: cypher(
          'MATCH p = (:Base)-[:ADCSESC1|ADCSESC3|ADCSESC4|ADCSESC6a|ADCSESC6b|ADCSESC9a|ADCSESC9b|ADCSESC10a|ADCSESC10b|ADCSESC13|GoldenCert]->()',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
    ],
  },
  {
    category: 'NTLM Relay Attacks',
    platform: AD,
    queries: [
      {
        id: 'ntlm-all-relay-edges',
        name: 'All coerce and NTLM relay edges',
        description: 'Computers whose authentication can be coerced and relayed to SMB, LDAP, LDAPS or AD CS.',
        query: cypher(
          'MATCH p = (:Base)-[:CoerceAndRelayNTLMToSMB|CoerceAndRelayNTLMToLDAP|CoerceAndRelayNTLMToLDAPS|CoerceAndRelayNTLMToADCS]->(:Base)',
          'RETURN p',
          'LIMIT 500',
        ),
      },
      {
        id: 'ntlm-relay-to-smb',
        name: 'Coerce and relay NTLM to SMB',
        description: 'CoerceAndRelayNTLMToSMB edges: relay to a computer that does not require SMB signing.',
        query: cypher('MATCH p = (:Base)-[:CoerceAndRelayNTLMToSMB]->(:Computer)', 'RETURN p', 'LIMIT 500'),
      },
      {
        id: 'ntlm-relay-to-ldap',
        name: 'Coerce and relay NTLM to LDAP or LDAPS',
        description: 'CoerceAndRelayNTLMToLDAP and …ToLDAPS edges: relay to a domain controller without signing or channel binding.',
        query: cypher('MATCH p = (:Base)-[:CoerceAndRelayNTLMToLDAP|CoerceAndRelayNTLMToLDAPS]->(:Computer)', 'RETURN p', 'LIMIT 500'),
      },
      {
        id: 'ntlm-relay-to-adcs',
        name: 'Coerce and relay NTLM to AD CS (ESC8)',
        description: 'CoerceAndRelayNTLMToADCS edges: relay to a vulnerable web enrollment endpoint.',
        query: cypher('MATCH p = (:Base)-[:CoerceAndRelayNTLMToADCS]->(:Computer)', 'RETURN p', 'LIMIT 500'),
      },
      {
        id: 'ntlm-esc8-cas',
        name: 'ESC8-vulnerable Enterprise CAs',
        description: 'Enterprise CAs with an HTTP(S) enrollment endpoint that accepts relayed NTLM.',
        query: cypher('MATCH (ca:EnterpriseCA)', 'WHERE ca.hasvulnerableendpoint = true', 'RETURN ca'),
      },
      {
        id: 'ntlm-no-smb-signing',
        name: 'Computers not requiring inbound SMB signing',
        description: 'Relay targets for SMB.',
        query: cypher('MATCH (c:Computer)', 'WHERE c.smbsigning = false', 'RETURN c'),
      },
      {
        id: 'ntlm-webclient',
        name: 'Computers with the WebClient running',
        description: 'Computers whose authentication can be coerced over HTTP (WebDAV), which LDAP accepts for relay.',
        query: cypher('MATCH (c:Computer)', 'WHERE c.webclientrunning = true', 'RETURN c', 'LIMIT 1000'),
      },
      {
        id: 'ntlm-outbound-denied',
        name: 'Computers with the outgoing NTLM setting set to Deny all',
        description: 'Computers that send no NTLM authentication, and so cannot be relayed.',
        query: cypher('MATCH (c:Computer)', 'WHERE c.restrictoutboundntlm = true', 'RETURN c', 'LIMIT 1000'),
      },
      {
        id: 'ntlm-ldap-relay-dcs',
        name: 'DCs vulnerable to NTLM relay to LDAP attacks',
        description: 'Domain controllers without LDAP signing, or without LDAPS channel binding.',
        query: cypher(
          'MATCH p = (dc:Computer)-[:DCFor]->(:Domain)',
          'WHERE dc.ldapsigning = false OR (dc.ldapsavailable = true AND dc.ldapsepa = false)',
          'RETURN p',
          'LIMIT 1000',
        ),
      },
    ],
  },
];
