-- Multi-factor authentication (TOTP, RFC 6238) of password users. One row per enrolled user; `secret` is sealed
-- with the server key like the other stored secrets. `last_step` is the time step of the last code accepted, so a
-- code (or an earlier one) is never accepted twice.
create table user_mfa (
  user_id    uuid primary key references users (id) on delete cascade,
  secret     text not null,
  activated  boolean not null default false,
  last_step  bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on column user_mfa.secret is 'sealed with the server key (gas1:<key id>:<iv>:<tag>:<ciphertext>)';
