/**
 * Who may change how a saved query is shared, as BloodHound decides it (CanUpdateSavedQueriesPermission):
 *   - an owner who is not an administrator may share a query that is not public, make it public or private;
 *   - an administrator may make their own query public, make any public query (or their own) private, and share
 *     their own query that is not public;
 *   - nobody shares a query with themselves, and a public query is made private before it is shared with users.
 */
export type SharingVerdict = 'ok' | 'forbidden' | 'self-share' | 'public-share';

export interface SharingRequest {
  userIds: readonly string[];
  public: boolean;
}

export function sharingVerdict(
  caller: { userId: string; isAdmin: boolean },
  query: { ownedByCaller: boolean; isPublic: boolean },
  request: SharingRequest,
): SharingVerdict {
  const selfShare = request.userIds.includes(caller.userId);
  if (caller.isAdmin) {
    if (request.public && query.ownedByCaller) return 'ok';
    if (request.userIds.length === 0 && (query.ownedByCaller || query.isPublic)) return 'ok';
    if (request.userIds.length > 0 && !request.public) {
      if (query.isPublic) return 'public-share';
      if (query.ownedByCaller) return selfShare ? 'self-share' : 'ok';
    }
    return 'forbidden';
  }
  if (!query.ownedByCaller || query.isPublic) return 'forbidden';
  if (request.userIds.length > 0 && !request.public && selfShare) return 'self-share';
  return 'ok';
}
