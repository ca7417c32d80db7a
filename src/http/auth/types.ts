import type { BodySource } from '../../auth/body-source.js';
import type { Session } from '../../auth/session.js';
import type { MaybePromise } from '../../maybe-promise.js';

/** The parts of an HTTP request authentication looks at. */
export interface AuthRequest {
  scheme: string;
  credential: string;
  method: string;
  /** Raw request target (path and query) as received. */
  target: string;
  header(name: string): string | undefined;
  body: BodySource;
}

/**
 * A way of proving who is calling. `null` means "not my scheme"; a Session means success; a thrown (or rejected)
 * UNAUTHENTICATED AppError means "my scheme, but the credential is invalid". An answer in hand is returned as is.
 */
export type AuthStrategy = (req: AuthRequest) => MaybePromise<Session | null>;
