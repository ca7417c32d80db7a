import type { AnalysisGraph, Changes } from '../../view.js';
import { AZ } from './kinds.js';

/** Management groups are named `DISPLAYNAME@TENANT NAME` once their tenant is known (FixManagementGroupNames). */
export function managementGroupNames(g: AnalysisGraph, c: Changes): void {
  const tenantNames = new Map<string, string>();
  for (const t of g.ofKind(AZ.tenant)) if (typeof t.props.name === 'string') tenantNames.set(t.objectid, t.props.name);
  for (const mg of g.ofKind(AZ.managementGroup)) {
    const display = mg.props.displayname;
    const tenantName = tenantNames.get(String(mg.props.tenantid ?? '').toUpperCase());
    if (typeof display !== 'string' || !display || !tenantName) continue;
    const name = `${display}@${tenantName}`.toUpperCase();
    if (mg.props.name !== name) c.node(mg, [], { name });
  }
}
