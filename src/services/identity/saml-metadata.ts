import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { badRequest } from '../../errors.js';

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER signing certificates (KeyDescriptor use="signing" or without a use). */
  certificates: string[];
  /** The IdP asks for signed AuthnRequests (IDPSSODescriptor WantAuthnRequestsSigned). */
  wantAuthnRequestsSigned: boolean;
}

const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REPEATED = new Set(['EntityDescriptor', 'IDPSSODescriptor', 'SingleSignOnService', 'KeyDescriptor', 'X509Certificate']);
const MAX_BYTES = 1024 * 1024;

/**
 * Parser settings that make XML attacks impossible: no entity processing at all (so neither external entities nor
 * "billion laughs" expansion), and documents with a DTD are refused before parsing.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
});

type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Node[];
const textOf = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'object' && v && '#text' in v ? String((v as Node)['#text']) : '';

/** Reads an IdP's SAML metadata; every failure is a 400 that says what is wrong. */
export function parseIdpMetadata(context: string, xml: string): IdpMetadata {
  if (!xml.trim()) throw badRequest(context, 'metadata is empty.');
  if (Buffer.byteLength(xml) > MAX_BYTES) throw badRequest(context, 'metadata is larger than 1 MiB.');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw badRequest(context, 'metadata must not contain a DTD or entity declarations.');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw badRequest(context, `metadata is not well-formed XML: ${valid.err.msg} (line ${valid.err.line}).`);
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (err) {
    // The parser refuses documents nested too deeply (and the like) by throwing; that is the sender's fault.
    throw badRequest(context, `metadata could not be read: ${(err as Error).message.slice(0, 200)}.`);
  }
  const entities = [...list(doc.EntityDescriptor), ...list((doc.EntitiesDescriptor as Node | undefined)?.EntityDescriptor)];
  if (!entities.length) throw badRequest(context, 'metadata has no EntityDescriptor.');
  const entity = entities.find((e) => list(e.IDPSSODescriptor).length > 0);
  if (!entity) throw badRequest(context, 'metadata has no IDPSSODescriptor: it does not describe an identity provider.');
  const entityId = String(entity['@_entityID'] ?? '').trim();
  if (!entityId) throw badRequest(context, 'metadata EntityDescriptor has no entityID.');
  const idp = list(entity.IDPSSODescriptor)[0]!;
  const sso = list(idp.SingleSignOnService).find((s) => s['@_Binding'] === HTTP_POST);
  const ssoUrl = String(sso?.['@_Location'] ?? '').trim();
  if (!sso || !/^https?:\/\/\S+$/i.test(ssoUrl)) {
    throw badRequest(context, 'metadata does not have a SSO service that supports HTTP POST binding.');
  }
  const certificates = list(idp.KeyDescriptor)
    .filter((k) => k['@_use'] === undefined || k['@_use'] === 'signing')
    .flatMap((k) => list(((k.KeyInfo as Node | undefined)?.X509Data as Node | undefined)?.X509Certificate).map(textOf))
    .map((c) => c.replace(/\s+/g, ''))
    .filter((c) => /^[A-Za-z0-9+/]+=*$/.test(c));
  if (!certificates.length) throw badRequest(context, 'metadata has no IdP signing certificate (KeyDescriptor/X509Certificate).');
  const wantAuthnRequestsSigned = ['true', '1'].includes(String(idp['@_WantAuthnRequestsSigned'] ?? '').trim());
  return { entityId, ssoUrl, certificates, wantAuthnRequestsSigned };
}

/** A base64 DER certificate as PEM. */
export const certificatePem = (b64: string): string =>
  `-----BEGIN CERTIFICATE-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
