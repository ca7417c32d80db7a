import type { EdgeInput, NodeInput, Properties } from '../graph/model.js';

/**
 * BloodHound's generic ingest ("OpenGraph"): `{"metadata": {"source_kind": …}, "graph": {"nodes": […], "edges": […]}}`.
 * Each element is checked against the rules of BloodHound's JSON schemas (cmd/api/src/services/upload/jsonschema
 * node.json, edge.json, metadata.json) and the checks its validator adds (no nested objects, homogeneous arrays,
 * no kinds in the reserved "tag" namespace), then converted as graphify's ConvertGenericNode / ConvertGenericEdge do:
 * ids and endpoint values upper-cased, the first kind recorded as `primarykind`.
 */

/** An endpoint matched by name or by properties: resolved against the graph once the file's nodes are written. */
export interface Lookup {
  name?: string;
  matchers?: { key: string; value: string | number | boolean }[];
  kind?: string;
}

export interface GraphEdge {
  edge: EdgeInput;
  /** Present when an endpoint is not matched by id. */
  start?: Lookup;
  end?: Lookup;
}

const EDGE_KIND = /^[A-Za-z0-9_]+$/;
const MAX_KIND_LENGTH = 100;
const MATCH_BY = new Set(['id', 'name', 'property']);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** `tag` and `tag_…` (any case) are BloodHound's asset-tagging kinds; a payload may not write them. */
function reservedKind(kind: string): boolean {
  const lower = kind.toLowerCase();
  return lower === 'tag' || lower.startsWith('tag_');
}

/** Problems with a property bag (null allowed for the whole bag). */
function checkProperties(where: string, props: unknown, errors: string[]): void {
  if (props === null || props === undefined) return;
  if (!isObject(props)) return void errors.push(`${where}.properties must be an object or null`);
  for (const [k, v] of Object.entries(props)) {
    if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) continue;
    if (Array.isArray(v)) {
      const types = new Set(v.map((x) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x)));
      if ([...types].some((t) => t !== 'string' && t !== 'number' && t !== 'boolean'))
        errors.push(`${where}: invalid property '${k}': arrays must hold only strings, numbers or booleans`);
      else if (types.size > 1) errors.push(`${where}: invalid property '${k}': array items must all be of one type`);
      continue;
    }
    if (isObject(v)) errors.push(`${where}: invalid property '${k}': objects are not allowed in the property bag`);
    else
      errors.push(`${where}: invalid property '${k}': ${v === null ? 'null' : typeof v} is not allowed (string, number, boolean or array)`);
  }
}

function checkKind(where: string, kind: string, errors: string[]): void {
  if (kind.length > MAX_KIND_LENGTH) errors.push(`${where}: kind '${kind.slice(0, 40)}…' is longer than ${MAX_KIND_LENGTH} characters`);
  if (reservedKind(kind)) errors.push(`${where}: kind '${kind}' uses reserved namespace 'tag'`);
}

/** The metadata object: only `source_kind` (string or null). Returns the problems found. */
export function checkMetadata(value: unknown): string[] {
  if (!isObject(value)) return ['metadata must be an object'];
  const errors: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k !== 'source_kind') errors.push(`metadata: additional property '${k}' is not allowed`);
    else if (v !== null && typeof v !== 'string') errors.push('metadata.source_kind must be a string or null');
  }
  return errors;
}

/** A node, or the problems that refuse it. */
export function convertNode(value: unknown, index: number, now: string): { node?: NodeInput; errors: string[] } {
  const where = `nodes[${index}]`;
  const errors: string[] = [];
  if (!isObject(value)) return { errors: [`${where} must be an object`] };
  const id = value.id;
  if (typeof id !== 'string' || !id) errors.push(`${where}.id is required and must be a non-empty string`);
  const kinds = value.kinds;
  if (!Array.isArray(kinds) || !kinds.length || kinds.some((k) => typeof k !== 'string' || !k))
    errors.push(`${where}.kinds is required and must be an array of one or more kind names`);
  else for (const k of kinds as string[]) checkKind(where, k, errors);
  checkProperties(where, value.properties, errors);
  if (errors.length) return { errors };
  const objectid = (id as string).toUpperCase();
  const props = (value.properties ?? {}) as Properties;
  const own = props.objectid;
  if (typeof own === 'string' && own.toUpperCase() !== objectid)
    return { errors: [`${where}: properties.objectid "${own}" does not match id "${id as string}"`] };
  const list = kinds as string[];
  return {
    // Object.assign, not a spread followed by more keys (see sharphound.ts).
    node: { objectid, kinds: [...new Set(list)], properties: Object.assign({}, props, { objectid, primarykind: list[0]!, lastseen: now }) },
    errors,
  };
}

function endpoint(where: string, value: unknown, errors: string[]): { id?: string; lookup?: Lookup; kind?: string } {
  if (!isObject(value)) {
    errors.push(`${where} is required and must be an object`);
    return {};
  }
  const matchBy = value.match_by ?? 'id';
  if (typeof matchBy !== 'string' || !MATCH_BY.has(matchBy)) {
    errors.push(`${where}.match_by must be one of "id", "name", "property"`);
    return {};
  }
  const kind = value.kind;
  if (kind !== undefined && typeof kind !== 'string') errors.push(`${where}.kind must be a string`);
  if (typeof kind === 'string') checkKind(where, kind, errors);
  const k = typeof kind === 'string' && kind ? kind : undefined;
  if (matchBy === 'property') {
    if (value.value !== undefined) errors.push(`${where}: "value" is not allowed when match_by is "property"`);
    const matchers = value.property_matchers;
    if (!Array.isArray(matchers) || !matchers.length) {
      errors.push(`${where}.property_matchers is required when match_by is "property"`);
      return {};
    }
    const out: NonNullable<Lookup['matchers']> = [];
    matchers.forEach((m, i) => {
      const v = isObject(m) ? m.value : undefined;
      if (!isObject(m) || typeof m.key !== 'string' || m.operator !== 'equals' || !['string', 'number', 'boolean'].includes(typeof v))
        errors.push(`${where}.property_matchers[${i}] needs "key" (string), "operator": "equals" and a string, number or boolean "value"`);
      else out.push({ key: m.key, value: v as string | number | boolean });
    });
    return { lookup: { matchers: out, kind: k }, kind: k };
  }
  if (value.property_matchers !== undefined) errors.push(`${where}: "property_matchers" is only allowed when match_by is "property"`);
  if (typeof value.value !== 'string' || !value.value) {
    errors.push(`${where}.value is required and must be a non-empty string`);
    return {};
  }
  const v = value.value.toUpperCase();
  return matchBy === 'name' ? { lookup: { name: v, kind: k }, kind: k } : { id: v, kind: k };
}

/** An edge (its endpoints possibly still to be looked up), or the problems that refuse it. */
export function convertEdge(value: unknown, index: number, now: string): { edge?: GraphEdge; errors: string[] } {
  const where = `edges[${index}]`;
  if (!isObject(value)) return { errors: [`${where} must be an object`] };
  const errors: string[] = [];
  const start = endpoint(`${where}.start`, value.start, errors);
  const end = endpoint(`${where}.end`, value.end, errors);
  const kind = value.kind;
  if (typeof kind !== 'string' || !EDGE_KIND.test(kind))
    errors.push(`${where}.kind is required and must contain only letters, digits and underscores`);
  else checkKind(where, kind, errors);
  // BloodHound's edge schema requires only start, end and kind: properties may be absent, null or an object.
  checkProperties(where, value.properties, errors);
  if (errors.length) return { errors };
  const props = (value.properties ?? {}) as Properties;
  return {
    edge: {
      edge: {
        start: start.id ?? '',
        end: end.id ?? '',
        kind: kind as string,
        properties: Object.assign({}, props, { lastseen: now }),
        startKind: start.kind,
        endKind: end.kind,
      },
      start: start.lookup,
      end: end.lookup,
    },
    errors,
  };
}
