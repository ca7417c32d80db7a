-- Login throttling: failed logins counted per client IP and per user name, in PostgreSQL so
-- every replica sees the same counts. A subject over its limit inside the window is refused until locked_until.
create table login_failures (
  kind         text not null check (kind in ('ip', 'user')),
  subject      text not null,
  failures     int not null default 0,
  window_start timestamptz not null,
  locked_until timestamptz,
  primary key (kind, subject)
);
