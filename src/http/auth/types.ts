import type { Session } from '../../auth/session.js';
import type { MaybePromise } from '../../maybe-promise.js';

/** The parts of an HTTP request authentication looks at: the headers, never the body. */
export interface AuthRequest {
  /** The Authorization header's scheme, lower-cased, and its credential; both empty without the header. */
  scheme: string;
  credential: string;
  method: string;
  /** Raw request target (path and query) as received. */
  target: string;
  header(name: string): string | undefined;
}

/**
 * A credential that covers the body (a signed request): accepted as far as the headers go, it is fed each body
 * chunk as it arrives and decides once the last one is in.
 */
export interface BodyBoundCredential {
  kind: 'body-bound';
  /** Who the credential claims to be (`token:<id>`), for per-caller budgets while the body streams. */
  claimant: string;
  update(chunk: Buffer): void;
  /** After the last chunk: the caller, or a thrown UNAUTHENTICATED AppError when the body does not match. */
  finish(): MaybePromise<Session>;
}

/**
 * A way of proving who is calling, from the headers. `null` means "not my credential"; a Session means success; a
 * BodyBoundCredential means "mine, and the body decides"; a thrown (or rejected) UNAUTHENTICATED AppError means
 * "mine, but invalid". An answer in hand is returned as is. A strategy for a cookie session reads `header('cookie')`
 * and claims requests without an Authorization header.
 */
export type AuthStrategy = (req: AuthRequest) => MaybePromise<Session | BodyBoundCredential | null>;
