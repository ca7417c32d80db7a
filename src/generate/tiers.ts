/**
 * Named sizes of generated data. One domain's users drive everything else (as many computers, a fifth
 * as many groups, ACEs per object); the figures are what tier S measured and scale linearly.
 */
export const TIERS = {
  /** ≈ 10k nodes / 200k edges */
  S: { users: 2_600, acesPerObject: 28, azureUsers: 1_000 },
  /** ≈ 100k nodes / 2M edges */
  M: { users: 26_000, acesPerObject: 28, azureUsers: 10_000 },
  /** ≈ 1M nodes / 20M edges */
  L: { users: 260_000, acesPerObject: 28, azureUsers: 100_000 },
} as const;

export type Tier = keyof typeof TIERS;

export function isTier(v: string): v is Tier {
  return Object.prototype.hasOwnProperty.call(TIERS, v);
}
