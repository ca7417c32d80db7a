import { describe, expect, it } from 'vitest';
import { TRAVERSABLE_KINDS } from '../../../../src/graph/kinds';
import { EDGE_CATEGORIES, PATHFINDING_KINDS, relationshipKinds } from './edgeCategories';

describe('pathfinding edge filter', () => {
  it("offers the kinds the server walks when it pathfinds, and BloodHound's newest ones it does not make yet", () => {
    expect(PATHFINDING_KINDS.filter((k) => !TRAVERSABLE_KINDS.has(k))).toEqual([
      'ProtectAdminGroups',
      'WriteAltSecurityIdentities',
      'WritePublicInformation',
      'AZRoleEligible',
      'AZRoleApprover',
      'AZAuthenticatesTo',
    ]);
    expect(EDGE_CATEGORIES.map((c) => c.name)).toEqual(['Active Directory', 'Azure']);
  });

  it('sends the kinds left checked', () => {
    const all = relationshipKinds([]);
    expect(all.startsWith('in:')).toBe(true);
    expect(all.split(/[:,]/).slice(1)).toHaveLength(PATHFINDING_KINDS.length);
    const some = relationshipKinds(['HasSession', 'CanRDP']);
    expect(some).not.toMatch(/HasSession|CanRDP/);
    expect(some).toContain('MemberOf');
  });
});
