import type { Properties } from '../graph/model.js';
import { bool, field, list, obj, ref, refs, str } from './fields.js';
import { aceEdges, readAces, type Ace } from './sharphound-aces.js';
import type { Out } from './sharphound-out.js';

const collected = (o: unknown) => field(o, 'Collected') === true;
/** Rights of the CA object's own ACL that CASecurity supersedes (unless held by the hosting computer). */
const CA_SERVICE_RIGHTS = new Set(['ManageCA', 'ManageCertificates', 'Enroll']);

/** EnterpriseCA properties from web enrollment endpoints and the CA's registry (ein ConvertEnterpriseCAToNode, ParseCARegistryProperties). */
export function enterpriseCAProperties(raw: unknown, props: Properties): void {
  const http: string[] = [];
  const https: string[] = [];
  let any = false;
  for (const e of list(raw, 'HttpEnrollmentEndpoints')) {
    if (!collected(e)) continue;
    any = true;
    const r = obj(e, 'Result');
    const url = str(r, 'Url') ?? '';
    if (bool(r, 'ADCSWebEnrollmentHTTP')) http.push(url);
    if (bool(r, 'ADCSWebEnrollmentHTTPS') && !bool(r, 'ADCSWebEnrollmentEPA')) https.push(url);
  }
  if (http.length) props.httpenrollmentendpoints = http;
  if (https.length) props.httpsenrollmentendpoints = https;
  if (http.length || https.length) props.hasvulnerableendpoint = true;
  else if (any) props.hasvulnerableendpoint = false;

  const reg = obj(raw, 'CARegistryData');
  const restrictions = obj(reg, 'EnrollmentAgentRestrictions');
  if (collected(restrictions)) props.hasenrollmentagentrestrictions = list(restrictions, 'Restrictions').length > 0;
  for (const [key, prop] of [
    ['IsUserSpecifiesSanEnabled', 'isuserspecifiessanenabled'],
    ['RoleSeparationEnabled', 'roleseparationenabled'],
  ] as const) {
    const v = obj(reg, key);
    if (collected(v)) props[prop] = field(v, 'Value') === true;
  }
}

/**
 * Edges of an EnterpriseCA: PublishedTo, HostsCAService, DelegatedEnrollmentAgent, and its ACL. CASecurity is the
 * CA *service's* security descriptor: its entries grant CA rights (ManageCA, Enroll, …) but never ownership of the
 * AD object, so its Owns entries and local-group principals are left out, and the object's own ManageCA /
 * ManageCertificates / Enroll entries give way to it (ein ParseEnterpriseCAMiscData).
 */
export function enterpriseCAEdges(out: Out, raw: unknown, oid: string, aces: Ace[], props: Properties): void {
  const templates = refs(raw, 'EnabledCertTemplates').map((t) => t.id);
  for (const t of templates) out.edge(t, oid, 'PublishedTo', { isacl: false }, 'CertTemplate', 'EnterpriseCA');
  const host = str(raw, 'HostingComputer')?.toUpperCase();
  if (host) out.edge(host, oid, 'HostsCAService', { isacl: false }, 'Computer', 'EnterpriseCA');

  const reg = obj(raw, 'CARegistryData');
  const restrictions = obj(reg, 'EnrollmentAgentRestrictions');
  if (collected(restrictions)) {
    for (const r of list(restrictions, 'Restrictions')) {
      const type = field(r, 'AccessType');
      if (type !== 'AccessAllowedCallback' && type !== 9) continue;
      const agent = ref(field(r, 'Agent'));
      if (!agent) continue;
      const template = ref(field(r, 'Template'))?.id;
      for (const t of bool(r, 'AllTemplates') ? templates : template ? [template] : [])
        out.edge(agent.id, t, 'DelegatedEnrollmentAgent', { isacl: false }, agent.kind, 'CertTemplate');
    }
  }

  const security = obj(reg, 'CASecurity');
  if (collected(security)) {
    const service = readAces(list(security, 'Data')).filter((a) => a.principalKind !== 'ADLocalGroup' && a.right !== 'Owns');
    const own = aces.filter((a) => a.principal === host || !CA_SERVICE_RIGHTS.has(a.right));
    aceEdges(out, [...service, ...own], oid, 'EnterpriseCA', props);
  }
}
