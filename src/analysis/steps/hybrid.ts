import type { AnalysisGraph, Changes } from '../view.js';
import { AZ, DERIVED } from './azure/kinds.js';
import { Tenant } from './azure/tenant.js';

/**
 * Hybrid identities (PostHybrid): an Entra user of a tenant with on-premises sync enabled and an `onpremid`
 * (the AD SID) is linked both ways to the AD user with that object id, SyncedToEntraUser (AD → Entra) and
 * SyncedToADUser (Entra → AD). Only AD users already in the graph are linked; nothing is created.
 */
export function hybridUsers(g: AnalysisGraph, c: Changes): void {
  for (const tenant of Tenant.all(g)) {
    for (const azUser of tenant.users) {
      const onPrem = azUser.props.onpremid;
      if (azUser.props.onpremsyncenabled !== true || typeof onPrem !== 'string' || !onPrem) continue;
      const adUser = g.byObjectId.get(onPrem.toUpperCase());
      if (!adUser?.kinds.has('User') || adUser.kinds.has(AZ.user)) continue;
      c.edge(adUser, azUser, DERIVED.syncedToEntraUser);
      c.edge(azUser, adUser, DERIVED.syncedToADUser);
    }
  }
}
