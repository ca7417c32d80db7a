import type { ANode, Changes } from '../view.js';
import { type AdcsContext, tpl } from './adcs-context.js';
import { expandToNonGroups, isEveryone } from './cross-product.js';

const ATTACK_RIGHTS = ['GenericWrite', 'GenericAll', 'Owns', 'WriteOwner', 'WriteDacl'];

/**
 * Victims of ESC9/ESC10: the non-group principals that can enroll both on the template and the CA (getVictimBitmap).
 * When Everyone/Authenticated Users may enroll on one side, every enroller of the other side is a victim.
 */
export function victims(ctx: AdcsContext, t: ANode, ca: ANode): ANode[] {
  const special = (set: ANode[]) => set.some((n) => isEveryone(n) || [...ctx.g.membersOf(n.id)].some((m) => isEveryone(ctx.g.node(m))));
  const tSet = ctx.templateEnrollers(t);
  const caSet = ctx.caEnrollers(ca);
  const tIds = expandToNonGroups(ctx.g, tSet);
  const caIds = expandToNonGroups(ctx.g, caSet);
  const out = new Set<number>();
  if (!special(tSet) && !special(caSet)) for (const id of tIds) if (caIds.has(id)) out.add(id);
  if (special(tSet)) caIds.forEach((id) => out.add(id));
  if (special(caSet)) tIds.forEach((id) => out.add(id));
  return [...out].map((id) => ctx.g.node(id));
}

/** Attackers are AD principals (FetchAttackersForEscalations9and10 matches Group, User and Computer start nodes). */
const ATTACKER_KINDS = ['Group', 'User', 'Computer'];

/** Whoever can rewrite a victim's UPN / dNSHostName: GenericWrite or full control of a user (a) or computer. */
function attackers(ctx: AdcsContext, targets: ANode[], computersOnly: boolean): ANode[] {
  const out = new Map<number, ANode>();
  for (const v of targets) {
    if (!(v.kinds.has('Computer') || (!computersOnly && v.kinds.has('User')))) continue;
    for (const k of ATTACK_RIGHTS) {
      for (const e of ctx.g.in(v.id, k)) {
        const a = ctx.g.node(e.startId);
        if (ATTACKER_KINDS.some((kind) => a.kinds.has(kind))) out.set(a.id, a);
      }
    }
  }
  return [...out.values()];
}

type Scenario = 'a' | 'b';
const sanRequirement = (t: ANode, s: Scenario) =>
  s === 'a' ? t.props.subjectaltrequireupn === true || t.props.subjectaltrequirespn === true : t.props.subjectaltrequiredns === true;

function escalate(
  ctx: AdcsContext,
  c: Changes,
  ca: ANode,
  domains: ANode[],
  kind: string,
  s: Scenario,
  valid: (t: ANode) => boolean,
  forest: (d: ANode) => boolean,
): void {
  if (!ctx.caEnrollers(ca).length) return;
  const found = new Map<number, ANode>();
  for (const t of ctx.published(ca)) {
    if (!valid(t) || !sanRequirement(t, s) || !ctx.templateEnrollers(t).length) continue;
    // Scenario a filters user victims by the template's DNS requirement; scenario b only takes computers anyway.
    const v = s === 'a' ? ctx.filterUsers(victims(ctx, t, ca), t) : victims(ctx, t, ca);
    for (const p of attackers(ctx, v, s === 'b')) found.set(p.id, p);
  }
  for (const p of found.values()) for (const d of domains) if (forest(d)) c.edge(p, d, kind);
}

const common = (t: ANode) => tpl.noApproval(t) && t.props.enrolleesuppliessubject === false && tpl.noSignatures(t);

/** ESC9: templates without the security extension, where a DC of the forest has weak certificate binding. */
export function esc9(ctx: AdcsContext, c: Changes, ca: ANode, domains: ANode[]): void {
  const valid = (t: ANode) => common(t) && tpl.authEnabled(t) && t.props.nosecurityextension === true;
  escalate(ctx, c, ca, domains, 'ADCSESC9a', 'a', valid, (d) => ctx.weakCertBinding(d));
  escalate(ctx, c, ca, domains, 'ADCSESC9b', 'b', valid, (d) => ctx.weakCertBinding(d));
}

/** ESC10: templates allowing Schannel authentication, where a DC of the forest maps certificates by UPN. */
export function esc10(ctx: AdcsContext, c: Changes, ca: ANode, domains: ANode[]): void {
  const valid = (t: ANode) => common(t) && tpl.schannelAuth(t);
  escalate(ctx, c, ca, domains, 'ADCSESC10a', 'a', valid, (d) => ctx.upnCertMapping(d));
  escalate(ctx, c, ca, domains, 'ADCSESC10b', 'b', valid, (d) => ctx.upnCertMapping(d));
}
