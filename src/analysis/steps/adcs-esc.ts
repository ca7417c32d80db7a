import type { ANode, Changes } from '../view.js';
import { type AdcsContext, tpl } from './adcs-context.js';
import { crossProduct } from './cross-product.js';

const toDomains = (c: Changes, principals: Iterable<ANode>, domains: ANode[], kind: string, when: (d: ANode) => boolean = () => true) => {
  for (const p of principals) for (const d of domains) if (when(d)) c.edge(p, d, kind);
};

/**
 * ESC1: enroll on the CA and on a published template that lets the enrollee supply the subject, allows
 * authentication, needs no manager approval and no authorised signatures. Users are not filtered out by the
 * template's subjectaltrequire* flags (PostADCSESC1 has no such filter): those make the CA build the name from the
 * requester's object, and here the enrollee supplies it.
 */
export function esc1(ctx: AdcsContext, c: Changes, ca: ANode, domains: ANode[]): void {
  const caEnrollers = ctx.caEnrollers(ca);
  for (const t of ctx.published(ca)) {
    if (!(t.props.enrolleesuppliessubject === true && tpl.authEnabled(t) && tpl.noApproval(t) && tpl.noSignatures(t))) continue;
    toDomains(c, crossProduct(ctx.g, [ctx.templateEnrollers(t), caEnrollers]), domains, 'ADCSESC1');
  }
}

/**
 * ESC3: enroll on an enrollment-agent template (no approval, no signatures) and its CA, then on a target
 * template it may enroll on behalf of (authentication, no approval) and this CA. When the CA restricts enrollment
 * agents, only delegated agents of the target template qualify.
 */
export function esc3(ctx: AdcsContext, c: Changes, ca: ANode, domains: ANode[]): void {
  // BloodHound reads the "collected" flag first; our ingest writes hasenrollmentagentrestrictions only when collected.
  const restricted = ca.props.enrollmentagentrestrictionscollected !== false && ca.props.hasenrollmentagentrestrictions === true;
  const found = new Set<ANode>();
  for (const target of ctx.published(ca)) {
    if (!(tpl.authEnabled(target) && tpl.noApproval(target))) continue;
    for (const e of ctx.g.in(target.id, 'EnrollOnBehalfOf')) {
      const agent = ctx.g.node(e.startId);
      if (!agent.kinds.has('CertTemplate') || !tpl.noApproval(agent) || !tpl.noSignatures(agent)) continue;
      const delegated = restricted ? [ctx.rightHolders(target, ['DelegatedEnrollmentAgent'])] : [];
      for (const agentCa of ctx.casOf(agent)) {
        const sets = [
          ctx.templateEnrollers(agent),
          ctx.templateEnrollers(target),
          ctx.caEnrollers(agentCa),
          ctx.caEnrollers(ca),
          ...delegated,
        ];
        for (const p of ctx.filterUsers(crossProduct(ctx.g, sets), agent)) found.add(p);
      }
    }
  }
  toDomains(c, found, domains, 'ADCSESC3');
}

/**
 * ESC4: control of a published template plus enrollment on the CA. Full control (GenericAll, Owns, WriteOwner,
 * WriteDacl) or GenericWrite with enrollment always; the PKI flag rights only on templates that allow
 * authentication without authorised signatures, in the combinations that make the template exploitable.
 */
export function esc4(ctx: AdcsContext, c: Changes, ca: ANode, domains: ANode[]): void {
  const caEnrollers = ctx.caEnrollers(ca);
  const found = new Set<ANode>();
  const add = (sets: ANode[][]) => crossProduct(ctx.g, [caEnrollers, ...sets]).forEach((p) => found.add(p));
  for (const t of ctx.published(ca)) {
    if (typeof t.props.enrolleesuppliessubject !== 'boolean' || typeof t.props.requiresmanagerapproval !== 'boolean') continue;
    const enroll = ctx.rightHolders(t, ['Enroll', 'AllExtendedRights']);
    const nameFlag = ctx.rightHolders(t, ['WritePKINameFlag']);
    const enrollmentFlag = ctx.rightHolders(t, ['WritePKIEnrollmentFlag']);
    add([ctx.templateControllers(t)]);
    add([ctx.rightHolders(t, ['GenericWrite']), enroll]);
    const v = tpl.schemaVersion(t);
    if (!tpl.authEnabled(t) || v === undefined || tpl.authorizedSignatures(t) === undefined || (v > 1 && tpl.authorizedSignatures(t)! > 0))
      continue;
    add([enroll, nameFlag, enrollmentFlag]);
    if (t.props.enrolleesuppliessubject === true) add([enroll, enrollmentFlag]);
    if (t.props.requiresmanagerapproval === false) add([enroll, nameFlag]);
  }
  toDomains(c, found, domains, 'ADCSESC4');
}

/**
 * ESC6: the CA lets requesters specify a SAN (EDITF_ATTRIBUTESUBJECTALTNAME2). 6a: templates without the security
 * extension that allow authentication; 6b: templates allowing Schannel authentication, where a DC of the forest
 * maps certificates by UPN.
 */
export function esc6(ctx: AdcsContext, c: Changes, ca: ANode, domains: ANode[]): void {
  // Our ingest writes isuserspecifiessanenabled only when it was collected; an explicit collected=false still wins.
  if (ca.props.isuserspecifiessanenabledcollected === false || ca.props.isuserspecifiessanenabled !== true) return;
  const caEnrollers = ctx.caEnrollers(ca);
  for (const t of ctx.published(ca)) {
    if (!tpl.noApproval(t) || !tpl.noSignatures(t)) continue;
    const principals = () => ctx.filterUsers(crossProduct(ctx.g, [ctx.templateEnrollers(t), caEnrollers]), t);
    if (t.props.nosecurityextension === true && tpl.authEnabled(t)) toDomains(c, principals(), domains, 'ADCSESC6a');
    if (tpl.schannelAuth(t)) toDomains(c, principals(), domains, 'ADCSESC6b', (d) => ctx.upnCertMapping(d));
  }
}

/**
 * ESC13: enroll on the CA and on a published template (authentication, no approval, no signatures) whose
 * issuance policy is linked to a group: the enrollee gets that group's rights.
 */
export function esc13(ctx: AdcsContext, c: Changes, ca: ANode): void {
  if (!ctx.chainedDomains(ca).length || !ctx.g.in(ca.id, 'HostsCAService').length) return;
  const caEnrollers = ctx.caEnrollers(ca);
  for (const t of ctx.published(ca)) {
    if (!(tpl.authEnabled(t) && tpl.noApproval(t) && tpl.noSignatures(t))) continue;
    const groups = ctx.g
      .out(t.id, 'ExtendedByPolicy')
      .flatMap((e) => ctx.g.out(e.endId, 'OIDGroupLink'))
      .map((e) => ctx.g.node(e.endId));
    if (!groups.length) continue;
    const principals = ctx.filterUsers(crossProduct(ctx.g, [ctx.templateEnrollers(t), caEnrollers]), t);
    for (const p of principals) for (const group of groups) c.edge(p, group, 'ADCSESC13');
  }
}
