import type { AnalysisGraph, Changes } from '../../view.js';
import { DERIVED, ROLE } from './kinds.js';
import { Tenant } from './tenant.js';

/** AZExecuteCommand: every holder of Intune Administrator to every Windows device of the tenant. */
export function executeCommand(g: AnalysisGraph, c: Changes): void {
  for (const tenant of Tenant.all(g)) {
    const windows = tenant.devices.filter((d) =>
      String(d.props.operatingsystem ?? '')
        .toLowerCase()
        .includes('windows'),
    );
    if (!windows.length) continue;
    const admins = [...tenant.roleMembers(ROLE.intuneAdmin)].map((id) => g.node(id));
    for (const device of windows) for (const admin of admins) c.edge(admin, device, DERIVED.executeCommand);
  }
}
