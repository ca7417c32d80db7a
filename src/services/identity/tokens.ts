import type { BodySource, StreamedDigest } from '../../auth/body-source.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Keyring } from '../../auth/secret-box.js';
import { beginSignature, digestsEqual, MAX_OFFSET_MINUTES, MIN_OFFSET_MINUTES, namedHour, parseRequestDate } from '../../auth/signature.js';
import { PERMISSIONS, type Session, type UserSession } from '../../auth/session.js';
import type { PrincipalsStore, TokenPrincipal } from '../../db/stores/identity/principals-store.js';
import type { TokenModel, TokensStore } from '../../db/stores/identity/tokens-store.js';
import type { UsersStore } from '../../db/stores/identity/users-store.js';
import { forbidden, notFound, unauthorized } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { whenReady, type MaybePromise } from '../../maybe-promise.js';
import type { IdentityService } from './identity.js';
import { requireUuid } from '../common/validate.js';

export interface SignedRequest {
  tokenId: string;
  method: string;
  /** Raw request target (path and query) as received. */
  target: string;
  requestDate: string;
  requestTime: Date;
  signature: Buffer;
  body: BodySource;
}

/**
 * A signed upload whose token and date were accepted from the headers: feed each body chunk to `update` as it is
 * written, then `finish` checks the digest (the 401 of a mismatch) and returns the proof for verifySignedRequest.
 */
export interface SignedBody {
  update(chunk: Buffer): void;
  finish(): StreamedDigest;
}

const digestMismatch = () =>
  unauthorized(
    'auth',
    'Signed request rejected: signature digest mismatch (check the method, the request target with its query, the RequestDate hour and the body).',
  );

/** Whether a digest streamed by the upload path was keyed with this very request's token, method, target and date. */
const sameRequest = (d: StreamedDigest, r: SignedRequest) =>
  d.tokenId === r.tokenId && d.method === r.method && d.target === r.target && d.requestDate === r.requestDate;

/** Resolves a client token to the client session; supplied by the collectors service. */
export type ClientResolver = (clientId: string, tokenId: string) => Promise<Session>;

export interface TokensDeps {
  tokens: TokensStore;
  principals: PrincipalsStore;
  users: UsersStore;
  identity: IdentityService;
  clock: () => Date;
  keyring: Keyring;
  log: Logger;
  /** Turns a client-owned token into the client's session (the collectors service); absent, client tokens are refused. */
  resolveClient?: ClientResolver;
  /**
   * Token principals kept between requests, dropped on every change notice from the database (migration 0020);
   * absent, every signed request reads its principal. See docs/security.md for why revocation stays immediate.
   */
  principalCache?: PrincipalCache;
}

/** A cache of token principals that serves only while its invalidation feed is live (src/auth/revocable-cache.ts). */
export interface PrincipalCache {
  /** The kept principal or the loaded one; a kept one comes back as a plain value (no promise, no turn of the loop). */
  get(tokenId: string, load: () => Promise<TokenPrincipal | undefined>): MaybePromise<TokenPrincipal | undefined>;
  invalidate(): void;
}

/** How far RequestDate may be from server time, either way (the README's one hour). */
const SKEW_MS = 3600_000;
/** How far a client's clock may run ahead of ours: its hour may start up to an hour after now. */
const AHEAD_MS = 3600_000;
/** How long after the start of the hour it names a signature stays usable. */
const LIFETIME_MS = 2 * 3600_000;

const fmtOffset = (m: number) =>
  `${m < 0 ? '-' : '+'}${String(Math.floor(Math.abs(m) / 60)).padStart(2, '0')}:${String(Math.abs(m) % 60).padStart(2, '0')}`;

/** Associated data of a sealed token key: the key opens only in its own row. */
export const tokenKeyAad = (tokenId: string) => `auth_tokens.key:${tokenId.toLowerCase()}`;

/**
 * The window check of a signed request. RequestDate as sent must be within an hour of server time. Only its hour text
 * is signed (minutes can be rewritten), so the check is also made on the start of that hour, read in the claimed
 * offset and, when the token has one fixed by earlier use, in that offset too: a replay cannot buy time by claiming
 * another offset, and a captured signature is usable at most two hours after the start of its hour. Returns the
 * refusal message, or undefined when inside.
 */
export function windowRefusal(requestDate: string, nowMs: number, pinnedOffset: number | null): string | undefined {
  const named = namedHour(requestDate);
  if (!named) return 'the RequestDate header is malformed.';
  if (named.offsetMinutes < MIN_OFFSET_MINUTES || named.offsetMinutes > MAX_OFFSET_MINUTES) {
    return `RequestDate offset ${fmtOffset(named.offsetMinutes)} is not a real UTC offset (-12:00 to +14:00).`;
  }
  const sent = parseRequestDate(requestDate);
  if (!sent) return 'the RequestDate header is malformed.';
  const skew = sent.getTime() - nowMs;
  if (Math.abs(skew) > SKEW_MS) {
    const minutes = ((Math.abs(skew) - SKEW_MS) / 60_000).toFixed(2);
    return `RequestDate is too far ${skew > 0 ? 'ahead of' : 'behind'} server time by ${minutes} minutes beyond the allowed hour. Server time is ${new Date(nowMs).toISOString()}.`;
  }
  const readings = [named.offsetMinutes];
  if (pinnedOffset !== null && pinnedOffset !== named.offsetMinutes) readings.push(pinnedOffset);
  for (const offset of readings) {
    const hourStart = named.hourTextMs - offset * 60_000;
    const pinned =
      offset !== named.offsetMinutes ? ` when its hour is read in this token's offset ${fmtOffset(offset)} (fixed by its first use)` : '';
    if (nowMs < hourStart - AHEAD_MS) {
      const minutes = ((hourStart - AHEAD_MS - nowMs) / 60_000).toFixed(2);
      return `RequestDate is too far ahead of server time${pinned} by ${minutes} minutes beyond the allowed hour. Server time is ${new Date(nowMs).toISOString()}.`;
    }
    if (nowMs >= hourStart + LIFETIME_MS) {
      const minutes = ((nowMs - hourStart - LIFETIME_MS) / 60_000).toFixed(2);
      return `RequestDate is too far behind server time${pinned} by ${minutes} minutes: a signature is valid until two hours after the hour it names. Server time is ${new Date(nowMs).toISOString()}.`;
    }
  }
  return undefined;
}

export type CreatedToken = TokenModel & { key: string };

const CONTEXT = 'tokens';

/** API tokens: issue, list, revoke, and verify the signed requests made with them. */
export function createTokensService(deps: TokensDeps) {
  const { tokens, clock, keyring } = deps;

  /** Stores a new token with its key sealed to its row. */
  async function insert(store: TokensStore, t: { userId: string | null; clientId: string | null; name: string | null }) {
    // A key sealed under a key the servers lack would be a token nobody can use: prove ours is theirs first.
    await deps.identity.checkSecrets();
    const id = crypto.randomUUID();
    const key = newTokenKey();
    const created = await store.create({ ...t, id, sealedKey: keyring.seal(key, tokenKeyAad(id)) });
    return { ...created, key };
  }
  /**
   * last_access (and the pinned offset) at most once a second per token: every signed request updating the same
   * row serialised concurrent requests of one collector on that row's lock (the http-graph benchmark: 0.05 of a
   * bare route at 32 connections). A changed offset is written at once.
   */
  const lastTouch = new Map<string, { ms: number; offset: number }>();
  function touchCoalesced(tokenId: string, at: Date, offset: number): Promise<void> | undefined {
    const ms = at.getTime();
    const last = lastTouch.get(tokenId);
    if (last && last.offset === offset && ms >= last.ms && ms - last.ms < 1000) return undefined;
    if (lastTouch.size > 10_000) lastTouch.clear();
    lastTouch.set(tokenId, { ms, offset });
    return tokens.touch(tokenId, at, offset);
  }
  /**
   * A use recorded without the answer waiting for it, one write in flight per token: writes held up behind a lock
   * on the row (or the embedded store's one session) must not pile up and take every pooled connection.
   */
  const touching = new Set<string>();
  function touchBehind(tokenId: string, at: Date, offset: number): void {
    if (touching.has(tokenId)) return;
    const touched = touchCoalesced(tokenId, at, offset);
    if (!touched) return;
    touching.add(tokenId);
    touched
      .catch((err: unknown) => deps.log.warn({ err, tokenId }, "could not record an API token's last use"))
      .finally(() => touching.delete(tokenId));
  }

  const mayManageUsers = (s: UserSession) => s.permissions.has(PERMISSIONS.AuthManageUsers);

  /** The token's principal, when the token is known and the RequestDate within the window; a 401 otherwise. */
  function knownToken(r: Pick<SignedRequest, 'tokenId' | 'requestDate'>): MaybePromise<TokenPrincipal> {
    const id = r.tokenId.toLowerCase();
    const principal = deps.principalCache ? deps.principalCache.get(id, () => deps.principals.byToken(id)) : deps.principals.byToken(id);
    return whenReady(principal, (p) => {
      if (!p) throw unauthorized('auth', 'Signed request rejected: unknown API token.');
      const refusal = windowRefusal(r.requestDate, clock().getTime(), p.requestOffsetMinutes);
      if (refusal) throw unauthorized('auth', `Signed request rejected: ${refusal}`);
      return p;
    });
  }

  /** The digest of a signed request: kept from the upload's stream, or computed over the body now. */
  function requestDigest(p: TokenPrincipal, r: SignedRequest): MaybePromise<Buffer> {
    if (r.body.kind === 'file' && r.body.signed) {
      // Hashed while it streamed to disk (beginSignedBody): the file is not read again.
      if (!sameRequest(r.body.signed, r)) throw digestMismatch();
      return r.body.signed.digest;
    }
    const h = beginSignature(signingKey(p), r.method, r.target, r.requestDate);
    if (r.body.kind === 'buffer') return h.update(r.body.data).digest();
    const path = r.body.path;
    return (async () => {
      for await (const chunk of fs.createReadStream(path)) h.update(chunk as Buffer);
      return h.digest();
    })();
  }

  /** The caller a verified token stands for: its owner, or the client it was issued to. */
  function callerOf(p: TokenPrincipal): MaybePromise<Session> {
    if (p.clientId) {
      if (!deps.resolveClient) throw unauthorized('auth', 'Signed request rejected: client tokens are not accepted here.');
      return deps.resolveClient(p.clientId, p.tokenId);
    }
    if (p.isDisabled) throw unauthorized('auth', 'Signed request rejected: the token owner is disabled.');
    return deps.identity.toUserSession(
      { userId: p.userId!, principalName: p.principalName!, isDisabled: false, permissions: p.permissions, roles: p.roles },
      { method: 'signature', tokenId: p.tokenId },
    );
  }

  // Opened keys by sealed value and token: the same input always opens to the same key, and opening (AES-GCM) was
  // ~2 % of a signed lookup's CPU. Bounded; a deleted token is never looked up again (its principal is gone).
  const opened = new Map<string, string>();
  const OPENED_MAX = 1024;

  /** The token's key, opened from its sealed row; a 401 when it cannot be. */
  function signingKey(p: { key: string; tokenId: string }): string {
    if (!Keyring.isSealed(p.key)) return p.key;
    const memo = `${p.tokenId}\u0000${p.key}`;
    const known = opened.get(memo);
    if (known !== undefined) return known;
    try {
      const key = keyring.open(p.key, tokenKeyAad(p.tokenId));
      if (opened.size >= OPENED_MAX) opened.clear();
      opened.set(memo, key);
      return key;
    } catch (err) {
      // The row was tampered with or sealed under a key this server lacks: the token cannot be checked.
      throw unauthorized('auth', `Signed request rejected: the token's stored key cannot be opened (${(err as Error).message})`);
    }
  }

  return {
    /** Issues a token for the caller, or for another user when the caller may manage users. The key is returned only here. */
    async create(session: UserSession, input: { name: string | null; userId?: string | null }): Promise<CreatedToken> {
      const userId = input.userId ? requireUuid(CONTEXT, 'user_id', input.userId) : session.userId;
      if (userId !== session.userId && !mayManageUsers(session)) {
        throw forbidden(CONTEXT, 'You may only create tokens for yourself.');
      }
      if (!(await deps.users.get(userId))) throw notFound(CONTEXT, 'The requested user could not be found.');
      return insert(tokens, { userId, clientId: null, name: input.name?.trim() || null });
    },

    /** Tokens of the caller, or of another user for callers who may manage users. Never includes keys. */
    async list(session: UserSession, userId?: string | null): Promise<TokenModel[]> {
      const owner = userId ? requireUuid(CONTEXT, 'user_id', userId) : session.userId;
      if (owner !== session.userId && !mayManageUsers(session)) throw forbidden(CONTEXT, 'You may only list your own tokens.');
      return tokens.listForUser(owner);
    },

    /** Endpoint 9: 400 malformed id, 404 unknown, 403 someone else's token without auth/ManageUsers. */
    async delete(session: UserSession, id: string): Promise<void> {
      const tokenId = requireUuid(CONTEXT, 'token_id', id);
      const token = await tokens.get(tokenId);
      if (!token) throw notFound(CONTEXT, 'The requested token could not be found.');
      const own = token.userId === session.userId;
      const allowed = own || mayManageUsers(session) || (token.clientId !== null && session.permissions.has(PERMISSIONS.ClientsManage));
      if (!allowed) throw forbidden(CONTEXT, 'You do not have permission to delete this token.');
      await tokens.delete(tokenId);
      // The database notifies every server too; this one need not wait for the notice.
      deps.principalCache?.invalidate();
    },

    /**
     * Verifies a signed request and returns its caller. Every failure is a 401 that names the failing part:
     * unknown token, disabled owner, date outside the window, digest mismatch. Updates last_access on success
     * (waited for only when that write also pins the token's offset).
     * A request whose token is in memory and whose body is in hand is answered without a promise: a signed look-up
     * spent a dozen promises here, each one a cost on every request while request scopes are tracked (src/scope.ts).
     */
    verifySignedRequest(r: SignedRequest): MaybePromise<Session> {
      return whenReady(knownToken(r), (p) =>
        whenReady(requestDigest(p, r), (digest) => {
          if (!digestsEqual(digest, r.signature)) throw digestMismatch();
          return whenReady(callerOf(p), (session) => {
            const offset = namedHour(r.requestDate)!.offsetMinutes;
            // The first accepted request pins the token's offset, and the next request must be checked against it.
            // Later uses only move last_access: the answer does not wait for them (on the embedded store an ingest's
            // file transaction holds the one session for seconds, and each waiting answer held a connection).
            if (p.requestOffsetMinutes !== null) {
              touchBehind(p.tokenId, clock(), offset);
              return session;
            }
            const touched = touchCoalesced(p.tokenId, clock(), offset);
            return touched ? touched.then(() => session) : session;
          });
        }),
      );
    },

    /**
     * The start of verifySignedRequest for an upload, from its headers alone: a known token, a RequestDate in the
     * window, the key opened (401 otherwise, before one body byte is written). The body is then hashed chunk by
     * chunk as it streams to disk, one pass, and `finish` refuses a mismatch at once.
     */
    async beginSignedBody(r: Omit<SignedRequest, 'body' | 'requestTime'>): Promise<SignedBody> {
      const p = await knownToken(r);
      const h = beginSignature(signingKey(p), r.method, r.target, r.requestDate);
      return {
        update: (chunk) => void h.update(chunk),
        finish() {
          const digest = h.digest();
          if (!digestsEqual(digest, r.signature)) throw digestMismatch();
          return { tokenId: r.tokenId, method: r.method, target: r.target, requestDate: r.requestDate, digest };
        },
      };
    },

    /** Issues a client-owned token (clients service), through `store` when inside its transaction. */
    async createForClient(clientId: string, name: string, store: TokensStore = tokens): Promise<CreatedToken> {
      return insert(store, { userId: null, clientId, name });
    },
  };
}

/** 40 random bytes as standard base64 (56 characters), the form BloodHound issues. */
function newTokenKey(): string {
  return crypto.randomBytes(40).toString('base64');
}

export type TokensService = ReturnType<typeof createTokensService>;
