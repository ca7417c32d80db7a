/** The service's editions (EDITION), GraphQL's Edition enum (src/services/common/enums.ts); /health answers them as set. */
export const EDITION = { community: 'community', enterprise: 'enterprise' } as const;
export type EditionValue = (typeof EDITION)[keyof typeof EDITION];
