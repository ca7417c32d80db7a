import { turnDue, type AnalysisGraph, type ANode, type Changes } from '../view.js';
import { nextTurn } from '../../next-turn.js';

/** Local group RID → the right its direct members get on the computer (PostLocalGroups). 555 is CanRDP, below. */
const RIGHTS: Record<string, string> = { '544': 'AdminTo', '562': 'ExecuteDCOM', '580': 'CanPSRemote', '551': 'CanBackup' };

/**
 * Members of a computer's local Administrators, Distributed COM Users, Remote Management Users and Backup
 * Operators get AdminTo, ExecuteDCOM, CanPSRemote and CanBackup to that computer. Only direct members that are
 * domain users, groups or computers (FetchLocalGroupMembership): nested members reach the computer through their
 * MemberOf path, local accounts get nothing. Like BloodHound (FetchComputerLocalGroupBySIDSuffix) one group per RID
 * and computer counts, so a second -544 group linked to the same computer grants nothing. BloodHound takes the first
 * its query returns, in its golden graphs the group the computer reported; ours is chosen by `rank`, not by storage
 * order.
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
    const better = (a: ANode, b: ANode) => rank(a, computer, rid) - rank(b, computer, rid) || a.id - b.id;
    if (!current || better(group, current.group) < 0) chosen.set(key, { group, computer });
  }
  for (const { group, computer } of chosen.values()) {
    if (due()) await nextTurn();
    const rid = group.objectid.slice(group.objectid.lastIndexOf('-') + 1);
    const members = g.in(group.id, 'MemberOfLocalGroup').map((m) => g.node(m.startId));
    const dau = dauOf.get(computer.id);
    if (rid === '555' && dau) citrixCanRDP(g, c, group, dau, computer);
    else if (rid === '555') canRDP(g, c, group, computer, members);
    else for (const m of members.filter(domainPrincipal)) c.edge(m, computer, RIGHTS[rid]!);
  }
}

/** What FetchLocalGroupMembership returns of a local group's members: no local accounts or nested local groups. */
const domainPrincipal = (n: ANode) => n.kinds.has('User') || n.kinds.has('Group') || n.kinds.has('Computer');

/**
 * Which of a computer's groups of one RID counts (lowest first). A GPO's changes imply a bare group named
 * `<computer SID>-<RID>` (what ingest writes for GPOChanges); on a member server that is also the id of the group
 * the computer reports, which then has a name, but a DC reports its domain's BUILTIN group: what the computer
 * reported beats what a GPO implies. Then the group named after the computer, then any other.
 */
function rank(group: ANode, computer: ANode, rid: string): number {
  const named = group.objectid === `${computer.objectid}-${rid}`;
  if (named && group.props.name === undefined) return 2;
  return named ? 0 : 1;
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
 * Remote Desktop Users get CanRDP. Without collected user rights (hasura), or when the RDP group itself holds
 * SeRemoteInteractiveLogonRight, its domain principals qualify as for the other groups; otherwise a member needs the
 * right there, held directly or through a group.
 */
function canRDP(g: AnalysisGraph, c: Changes, group: ANode, computer: ANode, members: ANode[]): void {
  const holders = new Set(g.in(computer.id, 'RemoteInteractiveLogonRight').map((e) => e.startId));
  if (computer.props.hasura !== true || holders.has(group.id)) {
    for (const m of members.filter(domainPrincipal)) c.edge(m, computer, 'CanRDP');
    return;
  }
  for (const m of members) {
    if (holders.has(m.id) || [...g.groupsOf(m.id)].some((x) => holders.has(x))) c.edge(m, computer, 'CanRDP');
  }
}
