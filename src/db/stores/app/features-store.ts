import type { Queryable } from '../../pool.js';

export interface FeatureFlagModel {
  id: number;
  key: string;
  name: string;
  description: string;
  enabled: boolean;
  userUpdatable: boolean;
}

const COLUMNS = /* SQL */ `id, key, name, description, enabled, user_updatable as "userUpdatable"`;
const LIST = /* SQL */ `-- features.list
select ${COLUMNS} from feature_flags order by id`;
const GET = /* SQL */ `-- features.get
select ${COLUMNS} from feature_flags where id = $1`;
const TOGGLE = /* SQL */ `-- features.toggle
update feature_flags set enabled = not enabled, updated_at = now() where id = $1 and user_updatable returning ${COLUMNS}`;

export function createFeaturesStore(db: Queryable) {
  return {
    list: () => db.query<FeatureFlagModel>(LIST),
    async get(id: number): Promise<FeatureFlagModel | undefined> {
      return (await db.query<FeatureFlagModel>(GET, [id]))[0];
    },
    /** Flips a user-updatable flag in one statement (two toggles at once both count); undefined for others. */
    async toggle(id: number): Promise<FeatureFlagModel | undefined> {
      return (await db.query<FeatureFlagModel>(TOGGLE, [id]))[0];
    },
  };
}

export type FeaturesStore = ReturnType<typeof createFeaturesStore>;
