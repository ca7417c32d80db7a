import * as client from 'openid-client';
import type { Keyring } from '../../auth/secret-box.js';
import type { Queryable } from '../../db/pool.js';
import type { OidcStore } from '../../db/stores/identity/oidc-store.js';
import type { AutoProvision, SsoStore } from '../../db/stores/identity/sso-store.js';
import { AppError, badRequest, conflict, notFound, unauthorized, unavailable } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { IdentityService, LoginResult } from './identity.js';
import { oidcView, slugOf, type OidcProviderView } from './sso.js';

const CONTEXT = 'sso';

/** Associated data of a sealed client secret: it opens only for its own OIDC provider. */
export const oidcSecretAad = (id: number | string) => `oidc_providers.client_secret:${id}`;

export interface OidcDeps {
  store: OidcStore;
  sso: SsoStore;
  tx: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  bind: (q: Queryable) => { sso: SsoStore; oidc: OidcStore };
  identity: IdentityService;
  keyring: Keyring;
  rootUrl: string;
  log: Logger;
}

export interface OidcInput {
  name?: unknown;
  issuer?: unknown;
  clientId?: unknown;
  /** Our extension: a confidential client's secret (BloodHound's clients are public, PKCE alone). "" removes it. */
  clientSecret?: unknown;
  autoProvision?: Partial<AutoProvision>;
}

/** What the IdP's redirect brought back to the callback, and the state cookie the login set in this browser. */
export interface OidcCallbackInput {
  code?: string | null;
  state?: string | null;
  iss?: string | null;
  error?: string | null;
  errorDescription?: string | null;
  browserState?: string | null;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An issuer is an https URL (http only on this machine's loopback, for tests and local IdPs). */
function issuerUrl(value: unknown): URL {
  if (typeof value !== 'string' || !value.trim()) throw badRequest(CONTEXT, 'issuer is required.');
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw badRequest(CONTEXT, 'issuer url is invalid');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw badRequest(CONTEXT, 'issuer must be an https URL.');
  }
  if (url.search || url.hash) throw badRequest(CONTEXT, 'issuer must not have a query or fragment.');
  return url;
}

const text = (field: string, value: unknown, max: number): string => {
  if (typeof value !== 'string' || !value.trim()) throw badRequest(CONTEXT, `${field} is required.`);
  if (value.length > max) throw badRequest(CONTEXT, `${field} is longer than ${max} characters.`);
  return value.trim();
};

const roleId = (v: unknown): number => {
  if (!Number.isInteger(v) || (v as number) < 1) throw badRequest(CONTEXT, 'role id is invalid');
  return v as number;
};

/**
 * OpenID Connect single sign-on (authorization code flow with PKCE, state and nonce) through openid-client:
 * providers (create, update), the redirect to the IdP and the callback that turns a verified ID token into a
 * session, with users matched or provisioned as the provider's auto_provision says (the same binding as SAML).
 */
export function createOidcService(deps: OidcDeps) {
  const { store, log } = deps;
  const root = deps.rootUrl.replace(/\/+$/, '');
  const callbackUrl = (slug: string) => `${root}/api/v2/sso/${slug}/callback`;

  async function providerBySlug(slug: string) {
    const sso = /^[a-z0-9-]{1,200}$/.test(slug) ? await deps.sso.ssoBySlug(slug) : undefined;
    const oidc = sso && (await store.bySso([sso.id]))[0];
    if (!sso || !oidc) throw notFound(CONTEXT, 'No SSO provider has that name.');
    return { sso, oidc };
  }

  /** The IdP's configuration by discovery (its metadata document and, for ID token signatures, its keys). */
  async function configFor(p: { id: number; issuer: string; clientId: string; clientSecret: string | null }) {
    const issuer = new URL(p.issuer);
    const secret = p.clientSecret ? deps.keyring.open(p.clientSecret, oidcSecretAad(p.id)) : undefined;
    const auth = secret ? client.ClientSecretPost(secret) : client.None();
    let config: client.Configuration;
    try {
      config = await client.discovery(issuer, p.clientId, undefined, auth, {
        execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
        timeout: 10,
      });
    } catch (err) {
      log.warn({ err: (err as Error).message, issuer: p.issuer }, 'OIDC discovery failed');
      throw unavailable(CONTEXT, `The identity provider could not be reached or described itself wrongly: ${(err as Error).message}`);
    }
    // The ID token's signature is checked against the IdP's published keys, not only trusted for arriving over TLS.
    client.enableNonRepudiationChecks(config);
    return config;
  }

  const conflictOnName = (err: unknown) => {
    if (err instanceof AppError && err.code === 'CONFLICT') throw conflict(CONTEXT, 'sso provider name must be unique');
    throw err;
  };

  async function get(ssoId: number): Promise<OidcProviderView> {
    const p = (await store.bySso([ssoId]))[0];
    if (!p) throw notFound(CONTEXT, 'The requested SSO provider could not be found.');
    return oidcView(p);
  }

  return {
    /** BloodHound's POST /sso-providers/oidc: name, issuer, client_id, config.auto_provision. Duplicate names are 409. */
    async create(input: OidcInput): Promise<OidcProviderView> {
      const name = text('name', input.name, 200);
      const slug = slugOf(name);
      if (!slug) throw badRequest(CONTEXT, 'name must contain letters or digits.');
      const issuer = issuerUrl(input.issuer).toString().replace(/\/$/, '');
      const clientId = text('client_id', input.clientId, 500);
      const secret =
        input.clientSecret === undefined || input.clientSecret === null || input.clientSecret === ''
          ? null
          : text('client_secret', input.clientSecret, 2000);
      const a = input.autoProvision ?? {};
      const auto: AutoProvision = {
        enabled: a.enabled ?? false,
        default_role_id: a.default_role_id != null ? roleId(a.default_role_id) : 3,
        role_provision: a.role_provision ?? false,
      };
      const ssoId = await deps
        .tx(async (q) => {
          const s = deps.bind(q);
          const id = await s.sso.createSso(name, slug, { auto_provision: auto }, 'oidc');
          const oidcId = await s.oidc.create({ ssoProviderId: id, name, issuer, clientId });
          if (secret) await s.oidc.setSecret(oidcId, deps.keyring.seal(secret, oidcSecretAad(oidcId)));
          return id;
        })
        .catch(conflictOnName);
      return get(ssoId);
    },

    /** BloodHound's PATCH /sso-providers/{id} for an OIDC provider: fields left out (or empty) keep their values. */
    async update(ssoId: number, input: OidcInput): Promise<OidcProviderView> {
      const sso = await deps.sso.getSso(ssoId);
      const current = sso && (await store.bySso([sso.id]))[0];
      if (!sso || !current) throw notFound(CONTEXT, 'The requested SSO provider could not be found.');
      const name = input.name ? text('name', input.name, 200) : sso.name;
      const slug = slugOf(name);
      if (!slug) throw badRequest(CONTEXT, 'name must contain letters or digits.');
      const issuer = input.issuer ? issuerUrl(input.issuer).toString().replace(/\/$/, '') : current.issuer;
      const clientId = input.clientId ? text('client_id', input.clientId, 500) : current.clientId;
      const before = sso.config.auto_provision;
      const a = input.autoProvision ?? {};
      const auto: AutoProvision = {
        enabled: a.enabled ?? before.enabled,
        default_role_id: a.default_role_id != null ? roleId(a.default_role_id) : before.default_role_id,
        role_provision: a.role_provision ?? before.role_provision,
      };
      await deps
        .tx(async (q) => {
          const s = deps.bind(q);
          await s.sso.updateSso(sso.id, name, slug, { ...sso.config, auto_provision: auto });
          await s.oidc.update(sso.id, { name, issuer, clientId });
          if (input.clientSecret === '') await s.oidc.setSecret(current.id, null);
          else if (input.clientSecret != null) {
            const secret = text('client_secret', input.clientSecret, 2000);
            await s.oidc.setSecret(current.id, deps.keyring.seal(secret, oidcSecretAad(current.id)));
          }
        })
        .catch(conflictOnName);
      return get(sso.id);
    },

    /**
     * The IdP's authorization URL for a fresh request: S256 PKCE challenge, state and nonce, the verifier and nonce
     * kept in PostgreSQL under the state (any replica may take the callback) for ten minutes.
     */
    async loginUrl(slug: string): Promise<string> {
      const { sso, oidc } = await providerBySlug(slug);
      const config = await configFor(oidc);
      const state = client.randomState();
      const nonce = client.randomNonce();
      const codeVerifier = client.randomPKCECodeVerifier();
      await store.saveRequest(state, { ssoProviderId: sso.id, codeVerifier, nonce });
      return client
        .buildAuthorizationUrl(config, {
          redirect_uri: callbackUrl(sso.slug),
          scope: 'openid profile email',
          state,
          nonce,
          code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
        })
        .toString();
    },

    /**
     * The redirect back from the IdP. The state must be the one this browser was given (its cookie) and one we
     * issued for this provider and not yet used; the code is exchanged with the PKCE verifier; the ID token's
     * signature, issuer, audience, times and nonce are checked by openid-client. The principal is the `email` claim
     * (BloodHound's choice), else `preferred_username`, from the ID token or else the UserInfo endpoint. Refusals: 400 for a malformed or forged callback, 401 for a
     * token or code the IdP or we refuse.
     */
    async callback(slug: string, input: OidcCallbackInput): Promise<LoginResult> {
      const { sso, oidc } = await providerBySlug(slug);
      if (input.error) {
        throw unauthorized(
          CONTEXT,
          `The identity provider refused the sign-in: ${input.error}${input.errorDescription ? ` (${input.errorDescription})` : ''}.`,
        );
      }
      if (!input.code) throw badRequest(CONTEXT, 'missing code');
      if (!input.state) throw badRequest(CONTEXT, 'missing state');
      if (!input.browserState || input.browserState !== input.state)
        throw badRequest(CONTEXT, 'bad state: it is not the one this browser was given.');
      const pending = await store.takeRequest(input.state);
      if (!pending || pending.ssoProviderId !== sso.id) throw badRequest(CONTEXT, 'bad state: unknown, used or expired.');
      const config = await configFor(oidc);
      const current = new URL(callbackUrl(sso.slug));
      current.searchParams.set('code', input.code);
      current.searchParams.set('state', input.state);
      if (input.iss) current.searchParams.set('iss', input.iss);
      let claims: Record<string, unknown> | undefined;
      try {
        const tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: input.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims()!;
        claims = idToken;
        // A conforming IdP may keep profile claims out of the ID token when it issues an access token: ask UserInfo
        // for them, for the ID token's subject.
        if (!idToken.email && !idToken.preferred_username && config.serverMetadata().userinfo_endpoint) {
          claims = { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
        }
      } catch (err) {
        // openid-client wraps oauth4webapi's error, whose message names the claim or check that failed.
        const e = err as Error & { error?: string; code?: string; cause?: { message?: string } };
        const detail = typeof e.cause?.message === 'string' ? `: ${e.cause.message}` : '';
        log.info({ err: e.message, detail, code: e.code, error: e.error, provider: sso.slug }, 'OIDC sign-in refused');
        throw unauthorized(CONTEXT, `The sign-in was refused: ${e.error ? `${e.error}: ` : ''}${e.message}${detail}.`);
      }
      const principal = String(claims?.email ?? claims?.preferred_username ?? '').trim();
      if (!principal) throw unauthorized(CONTEXT, 'The ID token names no principal (no email or preferred_username claim).');
      const auto = sso.config.auto_provision;
      const userId = await deps.identity.ssoUser(principal, { id: sso.id, roleId: auto.enabled ? auto.default_role_id : null });
      return deps.identity.startSession(userId, `sso:${sso.id}`);
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
