import type { Properties } from '../../graph/model.js';
import { field, list, obj, str, type Obj } from '../fields.js';
import type { Converted } from '../sharphound.js';

/**
 * What one AzureHound record becomes, and the few rules every Azure converter shares (BloodHound ein/azure.go):
 * object ids upper-cased, every node `AZBase` plus its kind, `lastseen` on every node and edge, `lastcollected` only
 * where BloodHound's converter sets it, and edges skipped when an endpoint id is empty.
 */
export class AzureOut implements Converted {
  readonly nodes: Converted['nodes'] = [];
  readonly edges: Converted['edges'] = [];
  readonly deletes: string[] = [];
  unknownKind?: string;

  constructor(
    readonly kind: string,
    readonly now: string,
  ) {}

  /** An Azure node. Properties whose value is `undefined` are left out (the input did not carry them). */
  node(kind: string, objectid: string | undefined, props: Properties, collected = true): void {
    if (!objectid) return this.flag('no object id');
    const properties: Properties = {};
    for (const [k, v] of Object.entries(props)) if (v !== undefined) properties[k] = v;
    properties.objectid = objectid;
    properties.lastseen = this.now;
    if (collected) properties.lastcollected = this.now;
    this.nodes.push({ objectid, kinds: ['AZBase', kind], properties });
  }

  /** The Active Directory object an Entra object is synced from: only known to exist (BloodHound's OnPremNodes). */
  onPremNode(kind: 'User' | 'Group', sid: string | undefined): void {
    if (sid) this.nodes.push({ objectid: sid.toUpperCase(), kinds: ['Base', kind], properties: { objectid: sid.toUpperCase() } });
  }

  /** An edge; endpoints missing from the graph are created with the given kinds (`AZBase`: BloodHound's Entity). */
  edge(start: string | undefined, startKind: string, end: string | undefined, endKind: string, kind: string, props: Properties = {}): void {
    // Object.assign, not a spread followed by more keys (see ../sharphound.ts).
    if (start && end)
      this.edges.push({ start, end, kind, startKind, endKind, properties: Object.assign({}, props, { lastseen: this.now }) });
  }

  /** Marks the record as not (fully) converted; the caller counts it per kind, so it is reported, never silent. */
  flag(reason: string): void {
    this.unknownKind ??= `${this.kind} (${reason})`;
  }
}

/** Converts one record's `data` object of one kind. */
export type Converter = (data: Obj, out: AzureOut) => void;

/** Upper-cased, or undefined for a missing/empty value (BloodHound ids). */
export const up = (v: string | undefined): string | undefined => (v ? v.toUpperCase() : undefined);

/** A string field as BloodHound writes it: Go's zero value "" when missing. */
export const s = (o: unknown, name: string): string => {
  const v = field(o, name);
  return typeof v === 'string' ? v : '';
};

/** A boolean field as BloodHound writes it: Go's zero value false when missing. */
export const b = (o: unknown, name: string): boolean => field(o, name) === true;

/** `NAME@SUFFIX` upper-cased, the way BloodHound names Entra objects. */
export const at = (name: string, suffix: string): string => `${name}@${suffix}`.toUpperCase();

/**
 * An ISO 8601 UTC time as BloodHound's ParseISO8601 accepts it (`2006-01-02T15:04:05Z`, optional fraction);
 * undefined when missing or unparseable (BloodHound writes Go's zero time there; we leave the property out).
 */
export function isoTime(o: unknown, name: string): string | undefined {
  const v = str(o, name);
  return v && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v) && !Number.isNaN(Date.parse(v)) ? v : undefined;
}

const DIRECTORY_KINDS: Record<string, string> = {
  '#microsoft.graph.user': 'AZUser',
  '#microsoft.graph.group': 'AZGroup',
  '#microsoft.graph.serviceprincipal': 'AZServicePrincipal',
  '#microsoft.graph.device': 'AZDevice',
};

/**
 * The node kind of a Graph directory object from its "@odata.type"; undefined for any other type, which BloodHound
 * skips with a warning (ExtractTypeFromDirectoryObject).
 */
export function directoryKind(o: unknown): string | undefined {
  return DIRECTORY_KINDS[(str(o, '@odata.type') ?? '').toLowerCase()];
}

/** A directory object that AzureHound wraps under `key` in each element of `listKey` (owners, members). */
export function directoryObjects(d: Obj, listKey: string, key: string): { id: string | undefined; kind: string | undefined }[] {
  return list(d, listKey).map((entry) => {
    const o = obj(entry, key);
    return { id: up(str(o, 'id')), kind: directoryKind(o) };
  });
}

/**
 * Managed identities of an Azure resource: the system-assigned principal, and each user-assigned identity that has a
 * client id (BloodHound's rule), as AZManagedIdentity edges to service principals.
 */
export function managedIdentities(out: AzureOut, d: Obj, id: string | undefined, kind: string): void {
  const identity = obj(d, 'identity');
  if (!identity) return;
  const system = str(identity, 'principalId');
  if (system) out.edge(id, kind, up(system), 'AZServicePrincipal', 'AZManagedIdentity');
  const userAssigned = obj(identity, 'userAssignedIdentities');
  for (const ua of Object.values(userAssigned ?? {}))
    if (str(ua, 'clientId')) out.edge(id, kind, up(str(ua, 'principalId')), 'AZServicePrincipal', 'AZManagedIdentity');
}
