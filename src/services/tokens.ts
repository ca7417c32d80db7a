import type { BodySource } from '../auth/body-source.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { beginSignature, digestsEqual } from '../auth/signature.js';
import { PERMISSIONS, type Session, type UserSession } from '../auth/session.js';
import type { PrincipalsStore } from '../db/stores/principals-store.js';
import type { TokenModel, TokensStore } from '../db/stores/tokens-store.js';
import type { UsersStore } from '../db/stores/users-store.js';
import { forbidden, notFound, unauthorized } from '../errors.js';
import type { IdentityService } from './identity.js';
import { requireUuid } from './validate.js';

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

/** Resolves a client token to the client session; supplied by the collectors service. */
export type ClientResolver = (clientId: string, tokenId: string) => Promise<Session>;

export interface TokensDeps {
  tokens: TokensStore;
  principals: PrincipalsStore;
  users: UsersStore;
  identity: IdentityService;
  clock: () => Date;
  /** Largest accepted distance between RequestDate and server time (1 h: a replay lives at most two hours). */
  maxSkewMs?: number;
}

export type CreatedToken = TokenModel & { key: string };

const CONTEXT = 'tokens';

/** API tokens: issue, list, revoke, and verify the signed requests made with them. */
export function createTokensService(deps: TokensDeps) {
  const { tokens, clock } = deps;
  const maxSkewMs = deps.maxSkewMs ?? 3600_000;
  let clientResolver: ClientResolver | undefined;

  const mayManageUsers = (s: UserSession) => s.permissions.has(PERMISSIONS.AuthManageUsers);

  return {
    /** Lets the collectors service turn client-owned tokens into client sessions. */
    setClientResolver(fn: ClientResolver) {
      clientResolver = fn;
    },

    /** Issues a token for the caller, or for another user when the caller may manage users. The key is returned only here. */
    async create(session: UserSession, input: { name: string | null; userId?: string | null }): Promise<CreatedToken> {
      const userId = input.userId ? requireUuid(CONTEXT, 'user_id', input.userId) : session.userId;
      if (userId !== session.userId && !mayManageUsers(session)) {
        throw forbidden(CONTEXT, 'You may only create tokens for yourself.');
      }
      if (!(await deps.users.get(userId))) throw notFound(CONTEXT, 'The requested user could not be found.');
      const key = newTokenKey();
      const created = await tokens.create({ userId, clientId: null, name: input.name?.trim() || null, key });
      return { ...created, key };
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
    },

    /**
     * Verifies a signed request and returns its caller. Every failure is a 401 that names the failing part:
     * unknown token, disabled owner, date outside the window, digest mismatch. Updates last_access on success.
     */
    async verifySignedRequest(r: SignedRequest): Promise<Session> {
      const p = await deps.principals.byToken(r.tokenId.toLowerCase());
      if (!p) throw unauthorized('auth', 'Signed request rejected: unknown API token.');
      const skew = r.requestTime.getTime() - clock().getTime();
      if (Math.abs(skew) > maxSkewMs) {
        const minutes = ((Math.abs(skew) - maxSkewMs) / 60_000).toFixed(2);
        throw unauthorized(
          'auth',
          `Signed request rejected: RequestDate is too far ${skew > 0 ? 'ahead of' : 'behind'} server time by ${minutes} minutes beyond the allowed hour. Server time is ${clock().toISOString()}.`,
        );
      }
      const h = beginSignature(p.key, r.method, r.target, r.requestDate);
      if (r.body.kind === 'buffer') h.update(r.body.data);
      else for await (const chunk of fs.createReadStream(r.body.path)) h.update(chunk as Buffer);
      if (!digestsEqual(h.digest(), r.signature)) {
        throw unauthorized(
          'auth',
          'Signed request rejected: signature digest mismatch (check the method, the request target with its query, the RequestDate hour and the body).',
        );
      }
      let session: Session;
      if (p.clientId) {
        if (!clientResolver) throw unauthorized('auth', 'Signed request rejected: client tokens are not accepted here.');
        session = await clientResolver(p.clientId, p.tokenId);
      } else {
        if (p.isDisabled) throw unauthorized('auth', 'Signed request rejected: the token owner is disabled.');
        session = deps.identity.toUserSession(
          { userId: p.userId!, principalName: p.principalName!, isDisabled: false, permissions: p.permissions, roles: p.roles },
          { method: 'signature', tokenId: p.tokenId },
        );
      }
      await tokens.touch(p.tokenId, clock());
      return session;
    },

    /** Issues a client-owned token (clients service), through `store` when inside its transaction. */
    async createForClient(clientId: string, name: string, store: TokensStore = tokens): Promise<CreatedToken> {
      const key = newTokenKey();
      const created = await store.create({ userId: null, clientId, name, key });
      return { ...created, key };
    },
  };
}

/** 40 random bytes as standard base64 (56 characters), the form BloodHound issues. */
function newTokenKey(): string {
  return crypto.randomBytes(40).toString('base64');
}

export type TokensService = ReturnType<typeof createTokensService>;
