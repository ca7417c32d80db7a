-- Runtime parameters (BloodHound's GET|PUT /api/v2/config). A row holds a parameter changed through the
-- API; a parameter without a row has its default. Which keys exist, their value shapes and defaults are the
-- service's (src/services/app/app-config.ts): only parameters the server acts on are stored.
create table app_parameters (
  key        text primary key,
  value      jsonb not null,
  updated_at timestamptz not null default now(),
  updated_by text not null
);
