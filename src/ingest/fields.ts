/**
 * SharpHound's JSON is decoded case-insensitively by BloodHound (Go), and real files differ in case
 * (`SpnTargets`/`SPNTargets`, `GUID`/`Guid`). These helpers read fields the same way.
 */
export type Obj = Record<string, unknown>;

const lowerMaps = new WeakMap<Obj, Map<string, string>>();

/** The value of `name` in `o`, matching the key case-insensitively. */
export function field(o: unknown, name: string): unknown {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return undefined;
  const obj = o as Obj;
  if (name in obj) return obj[name];
  let map = lowerMaps.get(obj);
  if (!map) {
    map = new Map(Object.keys(obj).map((k) => [k.toLowerCase(), k]));
    lowerMaps.set(obj, map);
  }
  const key = map.get(name.toLowerCase());
  return key === undefined ? undefined : obj[key];
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
  base: 'Base',
};

/** ObjectType as a node kind; unknown types become `Base` (the node is then only known to exist). */
export function normaliseKind(t: string | undefined): string {
  return (t && KIND_ALIASES[t.toLowerCase()]) || 'Base';
}
