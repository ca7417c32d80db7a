// Loaded on first use: its ASN.1 stack costs a CLI command over a third of a second it never needs.
const selfsigned = () => require('selfsigned') as typeof import('selfsigned');

/** Associated data of a sealed SP private key: it opens only for its own SAML provider. */
export const spKeyAad = (samlId: number | string) => `saml_providers.sp_private_key:${samlId}`;

export interface SpKeyPair {
  /** PEM certificate the IdP administrator installs to check our AuthnRequests. */
  certificate: string;
  /** PEM PKCS#8 private key (to be sealed before it is stored). */
  privateKey: string;
}

/** A self-signed RSA-2048 / SHA-256 certificate for a SAML service provider, valid ten years (as IdPs expect of SP keys). */
export async function generateSpKeyPair(commonName: string): Promise<SpKeyPair> {
  const now = new Date();
  const notAfter = new Date(now.getTime() + 10 * 365 * 86400_000);
  const pems = await selfsigned().generate([{ name: 'commonName', value: commonName.slice(0, 64) }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: notAfter,
  });
  return { certificate: pems.cert, privateKey: pems.private };
}

/** The base64 DER body of a PEM certificate. */
export const certificateBody = (pem: string): string => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
