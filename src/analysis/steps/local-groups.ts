import { turnDue, type AnalysisGraph, type ANode, type Changes } from '../view.js';
import { nextTurn } from '../../next-turn.js';

/** Local group RID → the right its direct members get on the computer (PostLocalGroups). 555 is CanRDP, below. */
const RIGHTS: Record<string, string> = { '544': 'AdminTo', '562': 'ExecuteDCOM', '580': 'CanPSRemote', '551': 'CanBackup' };

/**
 * Members of a computer's local Administrators, Distributed COM Users, Remote Management Users and Backup
 * Operators get AdminTo, ExecuteDCOM, CanPSRemote and CanBackup to that computer. Only direct members: nested
 * members reach the computer through their MemberOf path. Like BloodHound (FetchComputerLocalGroupIDBySIDSuffix)
 * one group per RID and computer counts: the one named after the computer (`<computer SID>-<RID>`), else the
 * first stored; a second -544 group linked to the same computer grants nothing.
 */
export async function localGroupRights(g: AnalysisGraph, c: Changes, opts: { citrixRdpSupport: boolean }): Promise<void> {
  const chosen = new Map<string, { group: ANode; computer: ANode }>();
  const dauOf = new Map<number, ANode>();
  // Both loops run over every computer's local groups (~0.3 s at tier M, on the serving thread): turns between.
  const due = turnDue();
  for (const e of g.edges('LocalToComputer')) {
    if (due()) await nextTurn();
    const group = g.node(e.startId);
    const computer = g.node(e.endId);
    const name = typeof group.props.name === 'string' ? group.props.name.toUpperCase() : '';
    if (opts.citrixRdpSupport && name.startsWith(CITRIX_GROUP) && (dauOf.get(computer.id)?.id ?? Infinity) > group.id) {
      dauOf.set(computer.id, group);
    }
    const rid = group.objectid.slice(group.objectid.lastIndexOf('-') + 1);
    if (rid !== '555' && !RIGHTS[rid]) continue;
    const key = `${computer.id}:${rid}`;
    const current = chosen.get(key);
    const canonical = (n: ANode) => n.objectid === `${computer.objectid}-${rid}`;
    if (!current || (!canonical(current.group) && (canonical(group) || group.id < current.group.id))) chosen.set(key, { group, computer });
  }
  for (const { group, computer } of chosen.values()) {
    if (due()) await nextTurn();
    const rid = group.objectid.slice(group.objectid.lastIndexOf('-') + 1);
    const members = g.in(group.id, 'MemberOfLocalGroup').map((m) => g.node(m.startId));
    const dau = dauOf.get(computer.id);
    if (rid === '555' && dau) citrixCanRDP(g, c, group, dau, computer);
    else if (rid === '555') canRDP(g, c, group, computer, members);
    else for (const m of members) c.edge(m, computer, RIGHTS[rid]!);
  }
}

/** Citrix creates a local group of this name (no well-known RID) on the hosts it runs on. */
const CITRIX_GROUP = 'DIRECT ACCESS USERS';

/** Principals in a group: its direct members (local or AD membership) and their nested members. */
function reach(g: AnalysisGraph, id: number): Set<number> {
  const out = new Set<number>();
  for (const e of [...g.in(id, 'MemberOfLocalGroup'), ...g.in(id, 'MemberOf')]) {
    out.add(e.startId);
    for (const m of g.membersOf(e.startId)) out.add(m);
  }
  return out;
}

/**
 * With analysis.citrix_rdp_support on, a computer with a Direct Access Users group runs Citrix: a principal
 * qualifies when it belongs to both Remote Desktop Users and Direct Access Users (directly or nested) and, when
 * user rights were collected, holds SeRemoteInteractiveLogonRight (directly or through a group). The edge goes to
 * the outermost qualifying principal only: members of a qualifying group reach the computer through MemberOf.
 */
function citrixCanRDP(g: AnalysisGraph, c: Changes, rdu: ANode, dau: ANode, computer: ANode): void {
  const inRdu = reach(g, rdu.id);
  const inDau = reach(g, dau.id);
  let logonRight: Set<number> | undefined;
  if (computer.props.hasura === true) {
    logonRight = new Set();
    for (const e of g.in(computer.id, 'RemoteInteractiveLogonRight')) {
      logonRight.add(e.startId);
      for (const m of reach(g, e.startId)) logonRight.add(m);
    }
  }
  const qualifies = (id: number) => inRdu.has(id) && inDau.has(id) && (!logonRight || logonRight.has(id));
  for (const id of inRdu) {
    if (qualifies(id) && ![...g.groupsOf(id)].some(qualifies)) c.edge(g.node(id), computer, 'CanRDP');
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
