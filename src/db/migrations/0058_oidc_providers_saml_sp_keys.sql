-- OpenID Connect providers beside SAML ones, and a signing key pair for each SAML service provider.

alter table sso_providers drop constraint sso_providers_type_check;
alter table sso_providers add constraint sso_providers_type_check check (type in ('saml', 'oidc'));

create table oidc_providers (
  id              serial primary key,
  sso_provider_id int not null unique references sso_providers (id) on delete cascade,
  name            text not null,
  issuer          text not null,
  client_id       text not null,
  -- sealed with the server key; null for a public client (PKCE alone)
  client_secret   text,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now()
);

-- Authorization requests issued by any replica, so the callback can land on any of them. A row is taken (deleted)
-- by the callback that presents its state, so a state works once.
create table oidc_requests (
  state           text primary key,
  sso_provider_id int not null references sso_providers (id) on delete cascade,
  code_verifier   text not null,
  nonce           text not null,
  created_at      timestamptz not null default now()
);

-- The SP's signing certificate (PEM) and its private key (PEM, sealed with the server key), made when the provider
-- is created; AuthnRequests are signed with it when the IdP's metadata says WantAuthnRequestsSigned.
alter table saml_providers
  add column sp_certificate             text,
  add column sp_private_key             text,
  add column want_authn_requests_signed boolean not null default false;
