import type { FeatureFlagModel, FeaturesStore } from '../../db/stores/app/features-store.js';
import { forbidden, notFound } from '../../errors.js';

const CONTEXT = 'features';

/** The flags the server acts on (feature_flags rows of migration 0055). */
export const FEATURE = { clearGraphData: 'clear_graph_data', mfaLogin: 'mfa_login' } as const;
export type FeatureKey = (typeof FEATURE)[keyof typeof FEATURE];

/**
 * Feature flags as BloodHound keeps them: listed by GET /api/v2/features, the user-updatable ones flipped by
 * PUT /api/v2/features/{id}/toggle. Read from the database at each use, so a flip reaches every replica at once.
 */
export function createFeaturesService(store: FeaturesStore) {
  return {
    list: (): Promise<FeatureFlagModel[]> => store.list(),

    async isEnabled(key: FeatureKey): Promise<boolean> {
      return (await store.list()).find((f) => f.key === key)?.enabled ?? false;
    },

    /** 403 unless the flag is on (the action it gates is switched off). */
    async require(key: FeatureKey, context: string): Promise<void> {
      if (!(await this.isEnabled(key)))
        throw forbidden(context, `This feature (${key}) is switched off; an administrator can switch it on.`);
    },

    /** BloodHound's toggle: 404 for an unknown id, 403 for a flag users may not switch; answers the new state. */
    async toggle(id: number): Promise<FeatureFlagModel> {
      const flipped = await store.toggle(id);
      if (flipped) return flipped;
      const flag = await store.get(id);
      if (!flag) throw notFound(CONTEXT, 'No such feature flag.');
      throw forbidden(CONTEXT, `Feature flag ${flag.key}(${id}) is not user updatable.`);
    },
  };
}

export type FeaturesService = ReturnType<typeof createFeaturesService>;
