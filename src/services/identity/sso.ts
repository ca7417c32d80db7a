import type { CacheProvider, SAML } from '@node-saml/node-saml';

// Loaded on first use: its XML and crypto stack costs a CLI command a quarter of a second it never needs.
const nodeSaml = () => require('@node-saml/node-saml') as typeof import('@node-saml/node-saml');
import type { Queryable } from '../../db/pool.js';
import type { AutoProvision, SamlProviderModel, SsoProviderModel, SsoStore } from '../../db/stores/identity/sso-store.js';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { UserModel, UsersStore } from '../../db/stores/identity/users-store.js';
import type { IdentityService, LoginResult } from './identity.js';
import { certificatePem, parseIdpMetadata } from './saml-metadata.js';
import { generateSpKeyPair, spKeyAad } from './saml-sp-keys.js';
import type { Keyring } from '../../auth/secret-box.js';
import type { OidcProviderModel, OidcStore } from '../../db/stores/identity/oidc-store.js';

const CONTEXT = 'sso';

/** Where a provider's SP endpoints live: ROOT_URL + /api/v2/sso/{slug}. */
export interface SpUrls {
  spIssuerUri: string;
  spSsoUri: string;
  spMetadataUri: string;
  spAcsUri: string;
}

/**
 * BloodHound's SSO provider types, GraphQL's SsoProviderType (src/services/common/enums.ts); REST answers them as stored,
 * in lower case. SAML providers are made here, OIDC ones by src/services/identity/oidc.ts.
 */
export const SSO_PROVIDER_TYPE = { saml: 'saml', oidc: 'oidc' } as const;
export type SsoProviderTypeValue = (typeof SSO_PROVIDER_TYPE)[keyof typeof SSO_PROVIDER_TYPE];

export type SamlProviderView = Omit<SamlProviderModel, 'spPrivateKey'> & SpUrls;
/** An OIDC provider as answered: never its client secret, only whether it has one. */
export type OidcProviderView = Omit<OidcProviderModel, 'clientSecret'> & { hasClientSecret: boolean };
export const oidcView = ({ clientSecret, ...p }: OidcProviderModel): OidcProviderView => ({ ...p, hasClientSecret: clientSecret !== null });
export type SsoProviderView = Omit<SsoProviderModel, 'type'> & {
  type: SsoProviderTypeValue;
  loginUri: string;
  callbackUri: string;
  details: SamlProviderView | null;
  oidcDetails: OidcProviderView | null;
};

export interface SsoDeps {
  store: SsoStore;
  identity: IdentityService;
  tx: <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;
  bind: (q: Queryable) => SsoStore;
  rootUrl: string;
  log: Logger;
  /** The users bound to a provider (deleting one answers them). */
  users: Pick<UsersStore, 'ofSsoProvider'>;
  /** OIDC providers, listed beside SAML ones. */
  oidc: Pick<OidcStore, 'bySso'>;
  /** Seals the SP private keys. */
  keyring: Keyring;
}

export const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** SAML single sign-on: providers from IdP metadata (endpoints 2, 3), SP metadata, login redirect and callback. */
export function createSsoService(deps: SsoDeps) {
  const { store, log } = deps;
  const root = deps.rootUrl.replace(/\/+$/, '');

  const urls = (slug: string): SpUrls => {
    const base = `${root}/api/v2/sso/${slug}`;
    return { spIssuerUri: base, spSsoUri: `${base}/login`, spMetadataUri: `${base}/metadata`, spAcsUri: `${base}/callback` };
  };
  const view = ({ spPrivateKey: _key, ...p }: SamlProviderModel): SamlProviderView => ({ ...p, ...urls(p.slug) });

  // AuthnRequest ids in PostgreSQL, so the callback may land on any replica.
  const cache: CacheProvider = {
    saveAsync: async (key, value) => {
      const saved = await store.saveRequest(key, value);
      return saved && { value: saved.value, createdAt: saved.createdAt.getTime() };
    },
    getAsync: (key) => store.getRequest(key),
    removeAsync: async (key) => (key ? store.removeRequest(key) : null),
  };

  function samlFor(p: SamlProviderModel): SAML {
    const sp = urls(p.slug);
    // AuthnRequests are signed (redirect binding: SigAlg and Signature on the query) only where the IdP asks.
    const signing =
      p.wantAuthnRequestsSigned && p.spPrivateKey
        ? { privateKey: deps.keyring.open(p.spPrivateKey, spKeyAad(p.id)), signatureAlgorithm: 'sha256' as const }
        : {};
    const { SAML, ValidateInResponseTo } = nodeSaml();
    return new SAML({
      ...signing,
      entryPoint: p.idpSsoUri,
      issuer: sp.spIssuerUri,
      callbackUrl: sp.spAcsUri,
      audience: sp.spIssuerUri,
      idpCert: p.idpCerts.map(certificatePem),
      idpIssuer: p.idpIssuerUri,
      wantAssertionsSigned: true,
      // Many IdPs sign only the assertion; that signature is required above.
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: 8 * 3600_000,
      cacheProvider: cache,
      acceptedClockSkewMs: 60_000,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
    });
  }

  async function providerBySlug(slug: string): Promise<{ sso: SsoProviderModel; saml: SamlProviderModel }> {
    const sso = /^[a-z0-9-]{1,200}$/.test(slug) ? await store.ssoBySlug(slug) : undefined;
    const saml = sso && (await store.samlBySso([sso.id]))[0];
    if (!saml) throw notFound(CONTEXT, 'No SSO provider has that name.');
    return { sso: sso!, saml };
  }

  /** Gives a SAML provider its SP key pair (the private key sealed); in the caller's transaction when given one. */
  async function addSpKeys(s: SsoStore, samlId: number, slug: string): Promise<void> {
    const keys = await generateSpKeyPair(urls(slug).spIssuerUri);
    await s.setSpKeys(samlId, keys.certificate, deps.keyring.seal(keys.privateKey, spKeyAad(samlId)));
  }

  return {
    urls,

    /** Endpoint 3: a SAML provider (and its SSO provider row) from an IdP's metadata. Duplicate names are 409. */
    async createSamlProvider(input: {
      name?: unknown;
      metadata?: unknown;
      autoProvision?: Partial<AutoProvision>;
      principalAttributeMappings?: string[];
    }): Promise<SamlProviderView> {
      if (typeof input.name !== 'string' || !input.name.trim()) throw badRequest(CONTEXT, 'form is missing "name" parameter');
      const name = input.name.trim();
      if (name.length > 200) throw badRequest(CONTEXT, 'name is longer than 200 characters.');
      const slug = slugOf(name);
      if (!slug) throw badRequest(CONTEXT, 'name must contain letters or digits.');
      if (typeof input.metadata !== 'string') throw badRequest(CONTEXT, 'form is missing "metadata" parameter');
      const meta = parseIdpMetadata(CONTEXT, input.metadata);
      const auto: AutoProvision = {
        enabled: input.autoProvision?.enabled ?? false,
        default_role_id: input.autoProvision?.default_role_id ?? 3,
        role_provision: input.autoProvision?.role_provision ?? false,
      };
      const id = await deps
        .tx(async (q) => {
          const s = deps.bind(q);
          const ssoId = await s.createSso(name, slug, { auto_provision: auto });
          const samlId = await s.createSaml({
            ssoProviderId: ssoId,
            name,
            idpIssuerUri: meta.entityId,
            idpSsoUri: meta.ssoUrl,
            idpCerts: meta.certificates,
            mappings: input.principalAttributeMappings ?? [],
            wantAuthnRequestsSigned: meta.wantAuthnRequestsSigned,
          });
          await addSpKeys(s, samlId, slug);
          return samlId;
        })
        .catch((err) => {
          if (err instanceof AppError && err.code === 'CONFLICT') throw conflict(CONTEXT, 'sso provider name must be unique');
          throw err;
        });
      return view((await store.samlById(id))!);
    },

    /**
     * BloodHound's PATCH /sso-providers/{id} for a SAML provider, with the rules of create: fields left out keep
     * their values; a new name moves the slug (and so the SP URLs); metadata is parsed as on create.
     */
    async updateSamlProvider(
      ssoId: number,
      input: { name?: unknown; metadata?: unknown; autoProvision?: Partial<AutoProvision>; principalAttributeMappings?: string[] },
    ): Promise<SamlProviderView> {
      const sso = await store.getSso(ssoId);
      const saml = sso && (await store.samlBySso([sso.id]))[0];
      if (!sso || !saml) throw notFound(CONTEXT, 'The requested SSO provider could not be found.');
      let name = sso.name;
      if (input.name != null) {
        if (typeof input.name !== 'string' || !input.name.trim()) throw badRequest(CONTEXT, 'name must not be empty.');
        name = input.name.trim();
        if (name.length > 200) throw badRequest(CONTEXT, 'name is longer than 200 characters.');
      }
      const slug = slugOf(name);
      if (!slug) throw badRequest(CONTEXT, 'name must contain letters or digits.');
      if (input.metadata != null && typeof input.metadata !== 'string') throw badRequest(CONTEXT, 'metadata must be the IdP metadata XML.');
      const meta = input.metadata != null ? parseIdpMetadata(CONTEXT, input.metadata as string) : undefined;
      const before = sso.config.auto_provision;
      const auto: AutoProvision = {
        enabled: input.autoProvision?.enabled ?? before?.enabled ?? false,
        default_role_id: input.autoProvision?.default_role_id ?? before?.default_role_id ?? 3,
        role_provision: input.autoProvision?.role_provision ?? before?.role_provision ?? false,
      };
      await deps
        .tx(async (q) => {
          const s = deps.bind(q);
          await s.updateSso(sso.id, name, slug, { ...sso.config, auto_provision: auto });
          await s.updateSaml(sso.id, {
            name,
            idpIssuerUri: meta?.entityId ?? saml.idpIssuerUri,
            idpSsoUri: meta?.ssoUrl ?? saml.idpSsoUri,
            idpCerts: meta?.certificates ?? saml.idpCerts,
            mappings: input.principalAttributeMappings?.length ? input.principalAttributeMappings : saml.principalAttributeMappings,
            wantAuthnRequestsSigned: meta?.wantAuthnRequestsSigned ?? saml.wantAuthnRequestsSigned,
          });
        })
        .catch((err) => {
          if (err instanceof AppError && err.code === 'CONFLICT') throw conflict(CONTEXT, 'sso provider name must be unique');
          throw err;
        });
      return view((await store.samlById(saml.id))!);
    },

    /** Endpoint 2. */
    async samlProvider(id: number): Promise<SamlProviderView> {
      const p = await store.samlById(id);
      if (!p) throw notFound(CONTEXT, 'The requested SAML provider could not be found.');
      return view(p);
    },

    /** GET /api/v2/sso-providers (public: the login page lists them). */
    async list(): Promise<SsoProviderView[]> {
      const providers = await store.listSso();
      const ids = providers.map((p) => p.id);
      const saml = new Map((await store.samlBySso(ids)).map((s) => [s.ssoProviderId, s]));
      const oidc = new Map((await deps.oidc.bySso(ids)).map((o) => [o.ssoProviderId, o]));
      return providers.map((p) => {
        const details = saml.get(p.id);
        const openid = oidc.get(p.id);
        const u = urls(p.slug);
        // The column's check constraint admits only the types of SSO_PROVIDER_TYPE.
        const type = p.type as SsoProviderTypeValue;
        return {
          ...p,
          type,
          loginUri: u.spSsoUri,
          callbackUri: u.spAcsUri,
          details: details ? view(details) : null,
          oidcDetails: openid ? oidcView(openid) : null,
        };
      });
    },

    /**
     * BloodHound's deprecated DELETE /api/v2/saml/providers/{id}, by the SAML provider's id: the users bound to it
     * (they stay, with no provider) are answered. Not the provider you signed in with (409, as BloodHound).
     */
    async deleteSaml(samlId: number, callerProviderId: number | null): Promise<UserModel[]> {
      const saml = await store.samlById(samlId);
      if (!saml) throw notFound(CONTEXT, 'The requested SAML provider could not be found.');
      if (callerProviderId === saml.ssoProviderId) throw conflict(CONTEXT, 'user may not delete their own SSO auth provider');
      const affected = await deps.users.ofSsoProvider(saml.ssoProviderId);
      if (!(await store.deleteSso(saml.ssoProviderId))) throw notFound(CONTEXT, 'The requested SAML provider could not be found.');
      return affected;
    },

    /** Deletes a provider with its SAML settings; users it created stay (with no provider). */
    async delete(id: number): Promise<void> {
      if (!(await store.deleteSso(id))) throw notFound(CONTEXT, 'The requested SSO provider could not be found.');
    },

    /** The SP metadata document for the IdP administrator, with the SP's signing certificate. */
    async spMetadata(slug: string): Promise<string> {
      const { saml } = await providerBySlug(slug);
      const cert = saml.spCertificate ? [saml.spCertificate] : undefined;
      return samlFor(saml).generateServiceProviderMetadata(null, cert);
    },

    /**
     * BloodHound's GET /sso-providers/{id}/signing-certificate: the SP's signing certificate (PEM). A provider made
     * before SP keys existed gets its pair now. An OIDC provider, or none, is a 404 as in BloodHound.
     */
    async signingCertificate(ssoId: number): Promise<{ slug: string; pem: string }> {
      const sso = await store.getSso(ssoId);
      let saml = sso && (await store.samlBySso([sso.id]))[0];
      if (!sso || !saml) throw notFound(CONTEXT, 'The requested SAML provider could not be found.');
      if (!saml.spCertificate) {
        await addSpKeys(store, saml.id, sso.slug);
        saml = (await store.samlBySso([sso.id]))[0]!;
      }
      return { slug: sso.slug, pem: saml.spCertificate! };
    },

    /** The kind of provider a slug names, so login and callback reach the right protocol. */
    async typeOf(slug: string): Promise<SsoProviderTypeValue> {
      const sso = /^[a-z0-9-]{1,200}$/.test(slug) ? await store.ssoBySlug(slug) : undefined;
      if (!sso) throw notFound(CONTEXT, 'No SSO provider has that name.');
      return sso.type as SsoProviderTypeValue;
    },

    /** The IdP URL to send the browser to, with a fresh AuthnRequest (its id is kept for InResponseTo). */
    async loginUrl(slug: string, relayState: string | null): Promise<string> {
      return samlFor((await providerBySlug(slug)).saml).getAuthorizeUrlAsync(relayState ?? '', undefined, {});
    },

    /**
     * The assertion consumer: node-saml checks the signature against the IdP's certificates, the audience, the
     * time conditions and InResponseTo; the principal (the first mapped attribute present, else the NameID) is
     * mapped to a user, who gets a normal session. Every refusal is a 401 that says why.
     */
    async callback(slug: string, samlResponse: unknown): Promise<LoginResult> {
      const { sso, saml: p } = await providerBySlug(slug);
      if (typeof samlResponse !== 'string' || !samlResponse) throw badRequest(CONTEXT, 'The form has no SAMLResponse.');
      if (/<!DOCTYPE|<!ENTITY/i.test(Buffer.from(samlResponse, 'base64').toString('utf8'))) {
        throw badRequest(CONTEXT, 'SAMLResponse must not contain a DTD.');
      }
      let profile: Record<string, unknown> | null;
      try {
        profile = (await samlFor(p).validatePostResponseAsync({ SAMLResponse: samlResponse })).profile as Record<string, unknown> | null;
      } catch (err) {
        log.info({ err: (err as Error).message, provider: p.slug }, 'SAML response refused');
        throw unauthorized(CONTEXT, `The SAML response was refused: ${(err as Error).message}`);
      }
      if (!profile) throw unauthorized(CONTEXT, 'The SAML response carries no assertion.');
      const mapped = p.principalAttributeMappings.map((a) => profile![a]).find((v) => typeof v === 'string' && v);
      const principal = String(mapped ?? profile.nameID ?? '').trim();
      if (!principal) throw unauthorized(CONTEXT, 'The SAML assertion names no principal.');
      const auto = sso.config.auto_provision;
      const userId = await deps.identity.ssoUser(principal, { id: sso.id, roleId: auto.enabled ? auto.default_role_id : null });
      return deps.identity.startSession(userId, `sso:${sso.id}`);
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
