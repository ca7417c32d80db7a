import type { Queryable } from '../../pool.js';
import { sealedColumn } from '../common/sealed-column.js';

export interface OidcProviderModel {
  id: number;
  ssoProviderId: number;
  slug: string;
  name: string;
  issuer: string;
  clientId: string;
  /** Sealed; null for a public client. */
  clientSecret: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface OidcRequestModel {
  ssoProviderId: number;
  codeVerifier: string;
  nonce: string;
}

const OIDC = /* SQL */ `o.id, o.sso_provider_id as "ssoProviderId", p.slug, o.name, o.issuer, o.client_id as "clientId",
  o.client_secret as "clientSecret", o.created_at as "createdAt", o.updated_at as "updatedAt"`;

/** How long a login may take between our redirect and the IdP's answer. */
const REQUEST_TTL = `interval '10 minutes'`;

const SQL = {
  create: /* SQL */ `-- oidc.create
insert into oidc_providers (sso_provider_id, name, issuer, client_id) values ($1, $2, $3, $4) returning id`,
  update: /* SQL */ `-- oidc.update
update oidc_providers set name = $2, issuer = $3, client_id = $4, updated_at = now() where sso_provider_id = $1`,
  setSecret: /* SQL */ `-- oidc.setSecret
update oidc_providers set client_secret = $2 where id = $1`,
  bySso: /* SQL */ `-- oidc.bySso
select ${OIDC} from oidc_providers o join sso_providers p on p.id = o.sso_provider_id where o.sso_provider_id = any($1::int[])`,
  saveRequest: /* SQL */ `-- oidc.saveRequest
insert into oidc_requests (state, sso_provider_id, code_verifier, nonce) values ($1, $2, $3, $4)`,
  takeRequest: /* SQL */ `-- oidc.takeRequest
delete from oidc_requests where state = $1 and created_at > now() - ${REQUEST_TTL}
returning sso_provider_id as "ssoProviderId", code_verifier as "codeVerifier", nonce`,
  expireRequests: /* SQL */ `-- oidc.expireRequests
delete from oidc_requests where created_at < now() - ${REQUEST_TTL}`,
};

export function createOidcStore(db: Queryable) {
  return {
    async create(p: { ssoProviderId: number; name: string; issuer: string; clientId: string }): Promise<number> {
      return (await db.query<{ id: number }>(SQL.create, [p.ssoProviderId, p.name, p.issuer, p.clientId]))[0]!.id;
    },
    async update(ssoProviderId: number, p: { name: string; issuer: string; clientId: string }): Promise<void> {
      await db.execute(SQL.update, [ssoProviderId, p.name, p.issuer, p.clientId]);
    },
    /** The client secret, already sealed (or null to make the client public). */
    async setSecret(id: number, sealed: string | null): Promise<void> {
      await db.execute(SQL.setSecret, [id, sealed]);
    },
    bySso: (ssoIds: readonly number[]) => db.query<OidcProviderModel>(SQL.bySso, [ssoIds]),
    async saveRequest(state: string, r: OidcRequestModel): Promise<void> {
      await db.execute(SQL.expireRequests);
      await db.execute(SQL.saveRequest, [state, r.ssoProviderId, r.codeVerifier, r.nonce]);
    },
    /** The pending request of a state, removed as it is read: a state is good for one callback. */
    async takeRequest(state: string): Promise<OidcRequestModel | undefined> {
      return (await db.query<OidcRequestModel>(SQL.takeRequest, [state]))[0];
    },
    /** Sealed client secrets, for sealing and rotation (null secrets are skipped by the caller). */
    secrets: sealedColumn(db, 'oidc.secrets', 'oidc_providers', 'id', 'client_secret'),
  };
}

export type OidcStore = ReturnType<typeof createOidcStore>;
