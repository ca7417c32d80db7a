import type { IdentityService } from '../../services/identity/identity.js';
import type { AuthStrategy } from './types.js';

/** `Authorization: Bearer <JWT>`: a login session. */
export function jwtStrategy(identity: IdentityService): AuthStrategy {
  return (req) => (req.scheme === 'bearer' ? identity.authenticateJwt(req.credential) : null);
}
