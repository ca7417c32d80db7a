import { unauthorized } from '../../errors.js';
import { whenReady } from '../../maybe-promise.js';
import type { TokensService } from '../../services/identity/tokens.js';
import { isUuid } from '../../services/common/validate.js';
import { decodeSignature, parseRequestDate, SIGNATURE_SCHEMES } from '../../auth/signature.js';
import type { AuthStrategy, BodyBoundCredential } from './types.js';

const reject = (what: string) => unauthorized('auth', `Signed request rejected: ${what}`);

/**
 * `Authorization: apisignature <token id>` (or BloodHound's `bhesignature`) with RequestDate and Signature
 * headers. Header checks happen here; the token lookup, time window and the digest over the body as it streams are
 * the tokens service's.
 */
export function signatureStrategy(tokens: TokensService): AuthStrategy {
  return (req) => {
    if (!(SIGNATURE_SCHEMES as readonly string[]).includes(req.scheme)) return null;
    if (!isUuid(req.credential)) throw reject('the token ID in the Authorization header is malformed (expected a UUID).');
    const requestDate = req.header('requestdate')?.trim();
    if (!requestDate) throw reject('the RequestDate header is missing.');
    if (!parseRequestDate(requestDate))
      throw reject('the RequestDate header is malformed (expected an RFC 3339 date-time such as 2026-01-02T15:04:05Z).');
    const sig = req.header('signature');
    if (!sig) throw reject('the Signature header is missing.');
    const signature = decodeSignature(sig.trim());
    if (!signature) throw reject('the Signature header is malformed (expected standard base64 of a 32-byte HMAC-SHA256 digest).');
    const tokenId = req.credential;
    return whenReady(
      tokens.beginSignedRequest({ tokenId, method: req.method, target: req.target, requestDate, signature }),
      (body): BodyBoundCredential => ({ kind: 'body-bound', claimant: `token:${tokenId.toLowerCase()}`, ...body }),
    );
  };
}
