/**
 * BloodHound's dog tags: what this deployment can do, as a flat map of dot-named values its UI reads. Zones and
 * labels are not limited here; analysis acts on Tier Zero only, and access is not scoped to environments.
 */
export const DOG_TAGS: Readonly<Record<string, boolean | number | string>> = {
  'auth.environment_targeted_access_control': false,
  'privilege_zones.tier_limit': 1000,
  'privilege_zones.label_limit': 1000,
  'privilege_zones.multi_tier_analysis': false,
};
