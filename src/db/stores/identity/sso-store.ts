import type { Queryable } from '../../pool.js';
import { sealedColumn } from '../common/sealed-column.js';

export interface AutoProvision {
  enabled: boolean;
  default_role_id: number;
  role_provision: boolean;
}

export interface SsoProviderModel {
  id: number;
  name: string;
  slug: string;
  type: string;
  config: { auto_provision: AutoProvision };
  createdAt: Date;
  updatedAt: Date;
}

export interface SamlProviderModel {
  id: number;
  ssoProviderId: number;
  slug: string;
  name: string;
  displayName: string;
  idpIssuerUri: string;
  idpSsoUri: string;
  idpCerts: string[];
  principalAttributeMappings: string[];
  /** The SP's signing certificate (PEM); null for a provider made before SP keys existed. */
  spCertificate: string | null;
  /** Its private key, sealed. */
  spPrivateKey: string | null;
  /** The IdP's metadata asks for signed AuthnRequests. */
  wantAuthnRequestsSigned: boolean;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

const SSO = /* SQL */ `p.id, p.name, p.slug, p.type, p.config, p.created_at as "createdAt", p.updated_at as "updatedAt"`;
const SAML = /* SQL */ `s.id, s.sso_provider_id as "ssoProviderId", p.slug, s.name, s.display_name as "displayName",
  s.idp_issuer_uri as "idpIssuerUri", s.idp_sso_uri as "idpSsoUri", s.idp_certs as "idpCerts",
  s.principal_attribute_mappings as "principalAttributeMappings", s.sp_certificate as "spCertificate",
  s.sp_private_key as "spPrivateKey", s.want_authn_requests_signed as "wantAuthnRequestsSigned", s.created_at as "createdAt",
  s.updated_at as "updatedAt", s.deleted_at as "deletedAt"`;

const SQL = {
  createSso: /* SQL */ `-- sso.create
insert into sso_providers (name, slug, config, type) values ($1, $2, $3, $4) returning id`,
  createSaml: /* SQL */ `-- sso.createSaml
insert into saml_providers (sso_provider_id, name, display_name, idp_issuer_uri, idp_sso_uri, idp_certs,
  principal_attribute_mappings, want_authn_requests_signed) values ($1, $2, $2, $3, $4, $5, $6, $7) returning id`,
  setSpKeys: /* SQL */ `-- sso.setSpKeys
update saml_providers set sp_certificate = $2, sp_private_key = $3 where id = $1`,
  updateSso: /* SQL */ `-- sso.update
update sso_providers set name = $2, slug = $3, config = $4, updated_at = now() where id = $1`,
  updateSaml: /* SQL */ `-- sso.updateSaml
update saml_providers set name = $2, display_name = $2, idp_issuer_uri = $3, idp_sso_uri = $4, idp_certs = $5,
  principal_attribute_mappings = $6, want_authn_requests_signed = $7, updated_at = now() where sso_provider_id = $1`,
  listSso: /* SQL */ `-- sso.list
select ${SSO} from sso_providers p order by p.created_at, p.id`,
  getSso: /* SQL */ `-- sso.get
select ${SSO} from sso_providers p where p.id = $1`,
  ssoBySlug: /* SQL */ `-- sso.bySlug
select ${SSO} from sso_providers p where p.slug = $1`,
  samlById: /* SQL */ `-- sso.samlById
select ${SAML} from saml_providers s join sso_providers p on p.id = s.sso_provider_id where s.id = $1`,
  samlBySso: /* SQL */ `-- sso.samlBySso
select ${SAML} from saml_providers s join sso_providers p on p.id = s.sso_provider_id where s.sso_provider_id = any($1::int[])`,
  deleteSso: /* SQL */ `-- sso.delete
delete from sso_providers where id = $1`,
  saveRequest: /* SQL */ `-- sso.saveRequest
insert into saml_requests (id, value) values ($1, $2) on conflict (id) do nothing returning value, created_at as "createdAt"`,
  getRequest: /* SQL */ `-- sso.getRequest
select value from saml_requests where id = $1 and created_at > now() - interval '8 hours'`,
  removeRequest: /* SQL */ `-- sso.removeRequest
delete from saml_requests where id = $1 returning value`,
  expireRequests: /* SQL */ `-- sso.expireRequests
delete from saml_requests where created_at < now() - interval '8 hours'`,
};

export function createSsoStore(db: Queryable) {
  return {
    async createSso(name: string, slug: string, config: SsoProviderModel['config'], type: 'saml' | 'oidc' = 'saml'): Promise<number> {
      return (await db.query<{ id: number }>(SQL.createSso, [name, slug, JSON.stringify(config), type]))[0]!.id;
    },
    async createSaml(p: {
      ssoProviderId: number;
      name: string;
      idpIssuerUri: string;
      idpSsoUri: string;
      idpCerts: string[];
      mappings: string[];
      wantAuthnRequestsSigned: boolean;
    }) {
      const args = [p.ssoProviderId, p.name, p.idpIssuerUri, p.idpSsoUri, p.idpCerts, p.mappings, p.wantAuthnRequestsSigned];
      return (await db.query<{ id: number }>(SQL.createSaml, args))[0]!.id;
    },
    listSso: () => db.query<SsoProviderModel>(SQL.listSso),
    async updateSso(id: number, name: string, slug: string, config: SsoProviderModel['config']): Promise<void> {
      await db.execute(SQL.updateSso, [id, name, slug, JSON.stringify(config)]);
    },
    async updateSaml(
      ssoProviderId: number,
      p: {
        name: string;
        idpIssuerUri: string;
        idpSsoUri: string;
        idpCerts: string[];
        mappings: string[];
        wantAuthnRequestsSigned: boolean;
      },
    ) {
      const args = [ssoProviderId, p.name, p.idpIssuerUri, p.idpSsoUri, p.idpCerts, p.mappings, p.wantAuthnRequestsSigned];
      await db.execute(SQL.updateSaml, args);
    },
    /** The SP's certificate and its private key, already sealed. */
    async setSpKeys(samlId: number, certificate: string, sealedKey: string): Promise<void> {
      await db.execute(SQL.setSpKeys, [samlId, certificate, sealedKey]);
    },
    /** Sealed SP private keys, for sealing and rotation (null keys are skipped by the caller). */
    spKeys: sealedColumn(db, 'sso.spKeys', 'saml_providers', 'id', 'sp_private_key'),
    async getSso(id: number): Promise<SsoProviderModel | undefined> {
      return (await db.query<SsoProviderModel>(SQL.getSso, [id]))[0];
    },
    async ssoBySlug(slug: string): Promise<SsoProviderModel | undefined> {
      return (await db.query<SsoProviderModel>(SQL.ssoBySlug, [slug]))[0];
    },
    async samlById(id: number): Promise<SamlProviderModel | undefined> {
      return (await db.query<SamlProviderModel>(SQL.samlById, [id]))[0];
    },
    samlBySso: (ssoIds: readonly number[]) => db.query<SamlProviderModel>(SQL.samlBySso, [ssoIds]),
    async deleteSso(id: number): Promise<boolean> {
      return (await db.execute(SQL.deleteSso, [id])) > 0;
    },
    /** The AuthnRequest id cache node-saml checks InResponseTo against (shared by every replica). */
    async saveRequest(id: string, value: string): Promise<{ value: string; createdAt: Date } | null> {
      await db.execute(SQL.expireRequests);
      return (await db.query<{ value: string; createdAt: Date }>(SQL.saveRequest, [id, value]))[0] ?? null;
    },
    async getRequest(id: string): Promise<string | null> {
      return (await db.query<{ value: string }>(SQL.getRequest, [id]))[0]?.value ?? null;
    },
    async removeRequest(id: string): Promise<string | null> {
      return (await db.query<{ value: string }>(SQL.removeRequest, [id]))[0]?.value ?? null;
    },
  };
}

export type SsoStore = ReturnType<typeof createSsoStore>;
