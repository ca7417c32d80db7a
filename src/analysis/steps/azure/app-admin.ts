import type { AnalysisGraph, ANode, Changes } from '../../view.js';
import { AZ, DERIVED, ROLE } from './kinds.js';
import { Tenant } from './tenant.js';

const ADD_SECRET_ROLES = [ROLE.applicationAdmin, ROLE.cloudApplicationAdmin];
const ADD_OWNER_ROLES = [ROLE.hybridIdentityAdmin, ROLE.partnerTier1Support, ROLE.partnerTier2Support, ROLE.directorySyncAccounts];

/** A managed identity's credentials are managed by Azure: nobody can add a secret to it. */
const isManagedIdentity = (n: ANode) =>
  n.kinds.has(AZ.sp) && String(n.props.serviceprincipaltype ?? '').toLowerCase() === 'managedidentity';

/**
 * Tenant-wide application control held by roles: AZAddSecret from Application Administrator and Cloud Application
 * Administrator, AZAddOwner from Hybrid Identity Administrator, Partner Tier1/Tier2 Support and Directory
 * Synchronization Accounts, each to every application and service principal of the tenant.
 */
export function appAdministration(g: AnalysisGraph, c: Changes): void {
  for (const tenant of Tenant.all(g)) {
    const targets = [...tenant.apps, ...tenant.servicePrincipals];
    for (const role of tenant.rolesOf(...ADD_SECRET_ROLES))
      for (const t of targets) if (!isManagedIdentity(t)) c.edge(role, t, DERIVED.addSecret);
    for (const role of tenant.rolesOf(...ADD_OWNER_ROLES)) for (const t of targets) c.edge(role, t, DERIVED.addOwner);
  }
}
