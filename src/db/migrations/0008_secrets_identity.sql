-- Secrets and identity hardening: sealed secrets, SSO provider binding.

-- Signed requests: the UTC offset a token's first accepted request used. The digest covers only the RequestDate
-- hour text, not its offset, so later requests must also fall in the window when their hour is read in this offset:
-- a captured signature then lives at most two hours after the hour it names, whatever offset a replay claims.
alter table auth_tokens add column request_offset_minutes int;

-- auth_tokens.key and app_secrets.value now hold AES-256-GCM sealed values (`gas1:…`) under a server key kept
-- outside the database; rows written before this migration are sealed by the service at its next start (the key
-- is not available to SQL).
comment on column auth_tokens.key is 'sealed with the server key (gas1:<key id>:<iv>:<tag>:<ciphertext>)';
comment on column app_secrets.value is 'sealed with the server key (gas1:<key id>:<iv>:<tag>:<ciphertext>)';

-- SSO users are bound to their provider (users.sso_provider_id): an assertion only reaches users of the provider
-- that made it. Local password users (no provider) are reachable through an IdP only once an administrator links
-- them (`gas user link-sso`), which sets this column.
create index users_sso_provider_idx on users (sso_provider_id) where sso_provider_id is not null;
