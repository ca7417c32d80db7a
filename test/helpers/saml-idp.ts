import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML identity provider made in the test: its own key pair and self-signed certificate, metadata that
 * advertises them, and signed responses built the way IdPs build them (the Assertion signed, exclusive c14n,
 * RSA-SHA256).
 */
export interface TestIdp {
  entityId: string;
  ssoUrl: string;
  key: string;
  cert: string;
  metadata: string;
  response(opts: ResponseOptions): string;
}

export interface ResponseOptions {
  inResponseTo: string;
  audience: string;
  acs: string;
  nameId: string;
  attributes?: Record<string, string>;
  /** Validity window relative to now, in ms (defaults: from -1 min to +5 min). */
  notBeforeMs?: number;
  notOnOrAfterMs?: number;
  /** Sign with another key (a forgery). */
  signingKey?: string;
  issuer?: string;
}

const B64 = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');

export async function createTestIdp(
  entityId = 'https://idp.test/saml/metadata',
  opts: { wantAuthnRequestsSigned?: boolean } = {},
): Promise<TestIdp> {
  const pems = await generate([{ name: 'commonName', value: 'idp.test' }], { keySize: 2048, algorithm: 'sha256' });
  const ssoUrl = 'https://idp.test/saml/sso';
  const metadata = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="${opts.wantAuthnRequestsSigned ? 'true' : 'false'}">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${B64(pems.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.test/saml/redirect"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  return {
    entityId,
    ssoUrl,
    key: pems.private,
    cert: pems.cert,
    metadata,
    response(o: ResponseOptions): string {
      const now = Date.now();
      const iso = (ms: number) => new Date(now + ms).toISOString();
      const attrs = Object.entries(o.attributes ?? {})
        .map(([k, v]) => `<saml:Attribute Name="${k}"><saml:AttributeValue>${v}</saml:AttributeValue></saml:Attribute>`)
        .join('');
      const assertionId = `_a${crypto.randomBytes(10).toString('hex')}`;
      const xml =
        `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
        `ID="_r${crypto.randomBytes(10).toString('hex')}" Version="2.0" IssueInstant="${iso(0)}" Destination="${o.acs}" InResponseTo="${o.inResponseTo}">` +
        `<saml:Issuer>${o.issuer ?? entityId}</saml:Issuer>` +
        `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
        `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(0)}">` +
        `<saml:Issuer>${o.issuer ?? entityId}</saml:Issuer>` +
        `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.nameId}</saml:NameID>` +
        `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
        `<saml:SubjectConfirmationData InResponseTo="${o.inResponseTo}" NotOnOrAfter="${iso(o.notOnOrAfterMs ?? 300_000)}" Recipient="${o.acs}"/>` +
        `</saml:SubjectConfirmation></saml:Subject>` +
        `<saml:Conditions NotBefore="${iso(o.notBeforeMs ?? -60_000)}" NotOnOrAfter="${iso(o.notOnOrAfterMs ?? 300_000)}">` +
        `<saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${assertionId}"><saml:AuthnContext>` +
        `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
        `</saml:AuthnContext></saml:AuthnStatement>` +
        (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
        `</saml:Assertion></samlp:Response>`;
      const sig = new SignedXml({
        privateKey: o.signingKey ?? pems.private,
        publicCert: pems.cert,
        signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      });
      sig.addReference({
        xpath: "//*[local-name(.)='Assertion']",
        transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
        digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      });
      sig.computeSignature(xml, {
        location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
      });
      return Buffer.from(sig.getSignedXml()).toString('base64');
    },
  };
}

/** The ID of the AuthnRequest carried in a redirect-binding login URL. */
export function authnRequestId(location: string): string {
  const request = new URL(location).searchParams.get('SAMLRequest')!;
  const xml = zlib.inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
  return /\sID="([^"]+)"/.exec(xml)![1]!;
}
