-- Every change that can revoke or alter what a signed request may do announces itself on channel gas_auth, so
-- servers that cache token principals drop them (src/db/auth-listener.ts). pg_notify is transactional: the
-- notice goes out when the change commits, to every listening connection of every replica, never for a rollback.
-- Updates fire only when a column the principal is made of changes: last_access is written on every use.
create function gas_auth_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('gas_auth', tg_table_name);
  return null;
end $$;

create trigger auth_tokens_changed after update on auth_tokens for each row
  when (old.deleted_at is distinct from new.deleted_at or old.key is distinct from new.key
        or old.user_id is distinct from new.user_id or old.client_id is distinct from new.client_id
        or old.request_offset_minutes is distinct from new.request_offset_minutes)
  execute function gas_auth_changed();
create trigger auth_tokens_removed after delete or truncate on auth_tokens for each statement execute function gas_auth_changed();

create trigger users_changed after update on users for each row
  when (old.is_disabled is distinct from new.is_disabled or old.principal_name is distinct from new.principal_name)
  execute function gas_auth_changed();
create trigger users_removed after delete or truncate on users for each statement execute function gas_auth_changed();

create trigger users_roles_changed after insert or update or delete or truncate on users_roles for each statement execute function gas_auth_changed();
create trigger roles_changed after insert or update or delete or truncate on roles for each statement execute function gas_auth_changed();
create trigger roles_permissions_changed after insert or update or delete or truncate on roles_permissions for each statement execute function gas_auth_changed();
create trigger permissions_changed after insert or update or delete or truncate on permissions for each statement execute function gas_auth_changed();
