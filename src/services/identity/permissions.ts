import type { PermissionModel, PermissionsStore, RoleModel } from '../../db/stores/identity/permissions-store.js';
import { notFound } from '../../errors.js';

/** Read access to the fixed permission and role catalogue. */
export function createPermissionsService(store: PermissionsStore) {
  return {
    async get(id: number): Promise<PermissionModel> {
      const p = await store.get(id);
      if (!p) throw notFound('permissions', 'The requested permission could not be found.');
      return p;
    },
    list: (): Promise<PermissionModel[]> => store.list(),
    listRoles: (): Promise<RoleModel[]> => store.listRoles(),
    permissionsOfRoles: (roleIds: readonly number[]) => store.permissionsOfRoles(roleIds),
  };
}

export type PermissionsService = ReturnType<typeof createPermissionsService>;
