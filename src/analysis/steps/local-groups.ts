import type { AnalysisGraph, ANode, Changes } from '../view.js';

/** Local group RID → the right its direct members get on the computer (PostLocalGroups). 555 is CanRDP, below. */
const RIGHTS: Record<string, string> = { '544': 'AdminTo', '562': 'ExecuteDCOM', '580': 'CanPSRemote', '551': 'CanBackup' };

/**
 * Members of a computer's local Administrators, Distributed COM Users, Remote Management Users and Backup
 * Operators get AdminTo, ExecuteDCOM, CanPSRemote and CanBackup to that computer. Only direct members: nested
 * members reach the computer through their MemberOf path. Like BloodHound (FetchComputerLocalGroupIDBySIDSuffix)
 * one group per RID and computer counts: the one named after the computer (`<computer SID>-<RID>`), else the
 * first stored; a second -544 group linked to the same computer grants nothing.
 */
export function localGroupRights(g: AnalysisGraph, c: Changes): void {
  const chosen = new Map<string, { group: ANode; computer: ANode }>();
  for (const e of g.edges('LocalToComputer')) {
    const group = g.node(e.startId);
    const computer = g.node(e.endId);
    const rid = group.objectid.slice(group.objectid.lastIndexOf('-') + 1);
    if (rid !== '555' && !RIGHTS[rid]) continue;
    const key = `${computer.id}:${rid}`;
    const current = chosen.get(key);
    const canonical = (n: ANode) => n.objectid === `${computer.objectid}-${rid}`;
    if (!current || (!canonical(current.group) && (canonical(group) || group.id < current.group.id))) chosen.set(key, { group, computer });
  }
  for (const { group, computer } of chosen.values()) {
    const rid = group.objectid.slice(group.objectid.lastIndexOf('-') + 1);
    const members = g.in(group.id, 'MemberOfLocalGroup').map((m) => g.node(m.startId));
    if (rid === '555') canRDP(g, c, group, computer, members);
    else for (const m of members) c.edge(m, computer, RIGHTS[rid]!);
  }
}

/**
 * Remote Desktop Users get CanRDP. When user rights were collected for the computer (hasura), a member also needs
 * SeRemoteInteractiveLogonRight there, held directly or through a group; when the RDP group itself holds the
 * right, all its direct members qualify.
 */
function canRDP(g: AnalysisGraph, c: Changes, group: ANode, computer: ANode, members: ANode[]): void {
  if (computer.props.hasura !== true) {
    for (const m of members) c.edge(m, computer, 'CanRDP');
    return;
  }
  const holders = new Set(g.in(computer.id, 'RemoteInteractiveLogonRight').map((e) => e.startId));
  const groupHolds = holders.has(group.id);
  for (const m of members) {
    const holds = groupHolds || holders.has(m.id) || [...g.groupsOf(m.id)].some((x) => holders.has(x));
    if (holds) c.edge(m, computer, 'CanRDP');
  }
}
