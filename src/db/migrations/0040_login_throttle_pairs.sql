-- Login throttling by (account, client address) with back-off, so a stranger's failures cannot lock an account out
-- for the addresses it is normally used from. Replaces login_failures (per user name and per address): five wrong
-- passwords from anywhere locked the account everywhere.
--   pair     one account from one address (its failures back off that pair only)
--   address  one address across accounts (password spraying)
--   account  one account from addresses it has never signed in from (a distributed attack); addresses in
--            login_known_addresses are not held by it
drop table if exists login_failures;

create table login_throttle (
  scope        text not null check (scope in ('pair', 'address', 'account')),
  subject      text not null,
  failures     int not null,
  last_failure timestamptz not null,
  locked_until timestamptz,
  primary key (scope, subject)
);

-- Where each account last signed in successfully from (the address as the throttle counts it: IPv6 by /56).
create table login_known_addresses (
  account      text not null,
  address      text not null,
  last_success timestamptz not null,
  primary key (account, address)
);
