import type { Queryable } from '../../pool.js';
import { groupBy } from '../common/group-by.js';

export interface PermissionModel {
  id: number;
  authority: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface RoleModel {
  id: number;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

const PERMISSION_COLUMNS = /* SQL */ `id, authority, name, created_at as "createdAt", updated_at as "updatedAt", deleted_at as "deletedAt"`;

const GET = /* SQL */ `-- permissions.get
select ${PERMISSION_COLUMNS} from permissions where id = $1`;
const LIST = /* SQL */ `-- permissions.list
select ${PERMISSION_COLUMNS} from permissions order by id`;
const LIST_ROLES = /* SQL */ `-- roles.list
select id, name, description, created_at as "createdAt", updated_at as "updatedAt" from roles order by id`;
const ROLE_BY_NAME = /* SQL */ `-- roles.getByName
select id, name, description, created_at as "createdAt", updated_at as "updatedAt" from roles where lower(name) = lower($1)`;
const ROLE_BY_ID = /* SQL */ `-- roles.getById
select r.id, r.name, r.description, r.created_at as "createdAt", r.updated_at as "updatedAt" from roles r where r.id = $1`;
const ROLE_PERMISSIONS = /* SQL */ `-- roles.permissions
select rp.role_id as "roleId", p.id, p.authority, p.name,
       p.created_at as "createdAt", p.updated_at as "updatedAt", p.deleted_at as "deletedAt"
from roles_permissions rp join permissions p on p.id = rp.permission_id
where rp.role_id = any($1::int[]) order by p.id`;

export function createPermissionsStore(db: Queryable) {
  return {
    async get(id: number): Promise<PermissionModel | undefined> {
      return (await db.query<PermissionModel>(GET, [id]))[0];
    },
    async list(): Promise<PermissionModel[]> {
      return db.query<PermissionModel>(LIST);
    },
    async listRoles(): Promise<RoleModel[]> {
      return db.query<RoleModel>(LIST_ROLES);
    },
    async roleById(id: number): Promise<RoleModel | undefined> {
      return (await db.query<RoleModel>(ROLE_BY_ID, [id]))[0];
    },
    async roleByName(name: string): Promise<RoleModel | undefined> {
      return (await db.query<RoleModel>(ROLE_BY_NAME, [name]))[0];
    },
    /** Permissions of each role id, in one query. */
    async permissionsOfRoles(roleIds: readonly number[]): Promise<Map<number, PermissionModel[]>> {
      return groupBy<number, PermissionModel & { roleId: number }, 'roleId'>(
        await db.query<PermissionModel & { roleId: number }>(ROLE_PERMISSIONS, [roleIds]),
        'roleId',
      );
    },
  };
}

export type PermissionsStore = ReturnType<typeof createPermissionsStore>;
