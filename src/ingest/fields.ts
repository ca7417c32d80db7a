/**
 * SharpHound's JSON is decoded case-insensitively by BloodHound (Go), and real files differ in case
 * (`SpnTargets`/`SPNTargets`, `GUID`/`Guid`). These helpers read fields the same way.
 */
export type Obj = Record<string, unknown>;

/** Lower-case forms of the names converters ask for (a few dozen constants). */
const lowerNames = new Map<string, string>();

/**
 * The value of `name` in `o`, matching the key case-insensitively (the last such key, as Go's decoder keeps it).
 * A name the object lacks is looked for among its keys of the same length: most objects lack a few optional
 * fields, and a map of lower-case keys built for each such object (tier M: 170,000 of them) cost more than it saved.
 */
export function field(o: unknown, name: string): unknown {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return undefined;
  const obj = o as Obj;
  if (Object.hasOwn(obj, name)) return obj[name];
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    // Bounded, should a caller ever pass names taken from the data.
    if (lowerNames.size < 256) lowerNames.set(name, lower);
  }
  let found: unknown;
  for (const k in obj) if (k.length === lower.length && k.toLowerCase() === lower) found = obj[k];
  return found;
}

export const str = (o: unknown, name: string): string | undefined => {
  const v = field(o, name);
  return typeof v === 'string' && v !== '' ? v : undefined;
};

export const bool = (o: unknown, name: string): boolean => field(o, name) === true;

export const list = (o: unknown, name: string): unknown[] => {
  const v = field(o, name);
  return Array.isArray(v) ? v : [];
};

export const obj = (o: unknown, name: string): Obj | undefined => {
  const v = field(o, name);
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
};

/** A `{ObjectIdentifier, ObjectType}` reference. */
export interface Ref {
  id: string;
  kind: string;
}

export function ref(o: unknown): Ref | undefined {
  const id = str(o, 'ObjectIdentifier');
  if (!id) return undefined;
  return { id: id.toUpperCase(), kind: normaliseKind(str(o, 'ObjectType')) };
}

export const refs = (o: unknown, name: string): Ref[] =>
  list(o, name)
    .map(ref)
    .filter((r): r is Ref => !!r);

const KIND_ALIASES: Record<string, string> = {
  user: 'User',
  computer: 'Computer',
  group: 'Group',
  gpo: 'GPO',
  ou: 'OU',
  container: 'Container',
  domain: 'Domain',
  localgroup: 'ADLocalGroup',
  adlocalgroup: 'ADLocalGroup',
  localuser: 'ADLocalUser',
  adlocaluser: 'ADLocalUser',
  aiaca: 'AIACA',
  rootca: 'RootCA',
  enterpriseca: 'EnterpriseCA',
  ntauthstore: 'NTAuthStore',
  certtemplate: 'CertTemplate',
  issuancepolicy: 'IssuancePolicy',
  site: 'Site',
  siteserver: 'SiteServer',
  sitesubnet: 'SiteSubnet',
  base: 'Base',
};

/** ObjectType as a node kind; unknown types become `Base` (the node is then only known to exist). */
export function normaliseKind(t: string | undefined): string {
  return (t && KIND_ALIASES[t.toLowerCase()]) || 'Base';
}
