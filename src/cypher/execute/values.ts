import { DateTimeV, DurationV, DateV } from './temporal.js';

/**
 * Cypher's values in JavaScript. Integers are plain numbers and floats are `CFloat`s, so `1` and `1.0` stay apart
 * as Cypher keeps them (`toString(1.0)` is "1.0", `5 / 2` is 2). Lists are arrays, maps plain objects; graph
 * elements and temporal values are classes. `null` is Cypher's null.
 */
export type Value = null | boolean | number | CFloat | string | Value[] | MapValue | NodeV | RelV | PathV | DateTimeV | DateV | DurationV;

export interface MapValue {
  [key: string]: Value;
}

export class CFloat {
  constructor(readonly v: number) {}
}

/** A node: its id in the graph that produced it. */
export class NodeV {
  constructor(readonly id: number) {}
}

let nodeValues: (NodeV | undefined)[] = [];

/**
 * The node value of a dense id, made once: a scan binds a node a row and an aggregate may hold millions, and a
 * NodeV carries nothing but its id (values compare by id, never by identity).
 */
export function nodeV(id: number): NodeV {
  let v = nodeValues[id];
  if (v !== undefined) return v;
  if (!Number.isInteger(id) || id < 0) return new NodeV(id);
  if (id >= nodeValues.length) {
    // Grown in steps, never written past its end: an array with holes far apart turns into a slow dictionary.
    const grown = new Array<NodeV | undefined>(Math.max(id + 1, nodeValues.length * 2, 1024)).fill(undefined);
    for (let i = 0; i < nodeValues.length; i++) grown[i] = nodeValues[i];
    nodeValues = grown;
  }
  return (nodeValues[id] = new NodeV(id));
}

/** A relationship: its id, its ends (as stored, start → end) and its type. */
export class RelV {
  constructor(
    readonly id: number,
    readonly start: number,
    readonly end: number,
    readonly type: string,
  ) {}
}

/** A path: nodes[i] and nodes[i + 1] are joined by rels[i]. */
export class PathV {
  constructor(
    readonly nodes: NodeV[],
    readonly rels: RelV[],
  ) {}
}

export const float = (v: number) => new CFloat(v);
export const isInt = (v: Value): v is number => typeof v === 'number';
export const isNumber = (v: Value): v is number | CFloat => typeof v === 'number' || v instanceof CFloat;
/** The numeric value of an integer or a float. */
export const num = (v: number | CFloat): number => (typeof v === 'number' ? v : v.v);
export const isMap = (v: Value): v is MapValue =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
export const isList = (v: Value): v is Value[] => Array.isArray(v);

/** Cypher's name of a value's type, for error messages. */
export function typeName(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return 'Boolean';
  if (typeof v === 'number') return 'Integer';
  if (v instanceof CFloat) return 'Float';
  if (typeof v === 'string') return 'String';
  if (Array.isArray(v)) return 'List';
  if (v instanceof NodeV) return 'Node';
  if (v instanceof RelV) return 'Relationship';
  if (v instanceof PathV) return 'Path';
  if (v instanceof DateTimeV) return 'DateTime';
  if (v instanceof DateV) return 'Date';
  if (v instanceof DurationV) return 'Duration';
  return 'Map';
}

/**
 * Cypher equality (`=`): true, false, or null when the answer depends on a null (three-valued logic). Integers and
 * floats compare by value; lists and maps element by element.
 */
export function equals(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  if (typeof a === 'string' || typeof a === 'boolean') return a === b;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (isNumber(a) && isNumber(b)) return num(a) === num(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    let unknown = false;
    for (let i = 0; i < a.length; i++) {
      const e = equals(a[i]!, b[i]!);
      if (e === false) return false;
      if (e === null) unknown = true;
    }
    return unknown ? null : true;
  }
  if (a instanceof NodeV) return b instanceof NodeV && a.id === b.id;
  if (a instanceof RelV) return b instanceof RelV && a.id === b.id;
  if (a instanceof PathV) {
    if (!(b instanceof PathV) || a.rels.length !== b.rels.length) return false;
    return a.nodes.every((n, i) => n.id === b.nodes[i]!.id) && a.rels.every((r, i) => r.id === b.rels[i]!.id);
  }
  if (a instanceof DateTimeV || a instanceof DateV || a instanceof DurationV) {
    return b.constructor === a.constructor && (a as { key(): string }).key() === (b as { key(): string }).key();
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    let unknown = false;
    for (const k of ka) {
      if (!(k in b)) return false;
      const e = equals(a[k]!, b[k]!);
      if (e === false) return false;
      if (e === null) unknown = true;
    }
    return unknown ? null : true;
  }
  return false;
}

/**
 * Comparison for `<`, `<=`, `>`, `>=`: a negative, zero or positive number, or null where Cypher says the two are
 * not comparable (different types, a null, NaN).
 */
export function compare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (isNumber(a) && isNumber(b)) {
    const x = num(a);
    const y = num(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return null;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compare(a[i]!, b[i]!);
      if (c === null) return null;
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (a instanceof DateTimeV && b instanceof DateTimeV) return a.compareTo(b);
  if (a instanceof DateV && b instanceof DateV) return a.days - b.days;
  return null;
}

/** The order of types in ORDER BY (Neo4j's: maps first, null last). */
function typeRank(v: Value): number {
  if (v === null) return 100;
  if (isNumber(v)) return 90;
  if (typeof v === 'boolean') return 80;
  if (typeof v === 'string') return 70;
  if (v instanceof DurationV) return 60;
  if (v instanceof DateV) return 52;
  if (v instanceof DateTimeV) return 50;
  if (v instanceof PathV) return 40;
  if (Array.isArray(v)) return 30;
  if (v instanceof RelV) return 20;
  if (v instanceof NodeV) return 10;
  return 0;
}

/** The total order ORDER BY sorts by: every pair of values is ordered (NaN after every number, null last). */
export function orderCompare(a: Value, b: Value): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (a === null) return 0;
  if (isNumber(a)) {
    const x = num(a);
    const y = num(b as number | CFloat);
    const nx = Number.isNaN(x);
    const ny = Number.isNaN(y);
    if (nx || ny) return nx === ny ? 0 : nx ? 1 : -1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (Array.isArray(a)) {
    const bl = b as Value[];
    for (let i = 0; i < Math.min(a.length, bl.length); i++) {
      const c = orderCompare(a[i]!, bl[i]!);
      if (c !== 0) return c;
    }
    return a.length - bl.length;
  }
  if (a instanceof NodeV || a instanceof RelV) return a.id - (b as NodeV).id;
  if (a instanceof PathV) {
    const bp = b as PathV;
    return orderCompare(
      a.nodes.map((n) => n.id),
      bp.nodes.map((n) => n.id),
    );
  }
  if (a instanceof DurationV) return a.key() < (b as DurationV).key() ? -1 : a.key() > (b as DurationV).key() ? 1 : 0;
  if (isMap(a)) return keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0;
  return compare(a, b) ?? 0;
}

/**
 * A string that is equal for equivalent values (DISTINCT, grouping keys, UNION): null is equivalent to null, 1 to
 * 1.0, NaN to NaN.
 */
export function keyOf(v: Value): string {
  if (v === null) return 'n';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number') return `d${v}`;
  if (v instanceof CFloat) return `d${v.v}`;
  if (typeof v === 'string') return `s${v.length}:${v}`;
  if (Array.isArray(v)) return `[${v.map(keyOf).join(',')}]`;
  if (v instanceof NodeV) return `N${v.id}`;
  if (v instanceof RelV) return `R${v.id}`;
  if (v instanceof PathV) return `P${v.nodes.map((n) => n.id).join('.')}/${v.rels.map((r) => r.id).join('.')}`;
  if (v instanceof DateTimeV || v instanceof DateV || v instanceof DurationV) return `T${v.constructor.name}${v.key()}`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${k.length}:${k}=${keyOf(v[k]!)}`).join(',')}}`;
}

/** Turns a property read from the graph (JSON) into a Cypher value: whole numbers are integers, others floats. */
export function fromJson(v: unknown): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? v : new CFloat(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(fromJson);
  if (typeof v === 'object') {
    const out: MapValue = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = fromJson(x);
    return out;
  }
  return null;
}

/** Turns a Cypher value into JSON for an answer (graph elements are the caller's to render; see toJsonWith). */
export function toJson(v: Value, element: (v: NodeV | RelV | PathV) => unknown = (e) => (e instanceof PathV ? null : e.id)): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof CFloat) return Number.isFinite(v.v) ? v.v : String(v.v);
  if (Array.isArray(v)) return v.map((x) => toJson(x, element));
  if (v instanceof NodeV || v instanceof RelV || v instanceof PathV) return element(v);
  if (v instanceof DateTimeV || v instanceof DateV || v instanceof DurationV) return v.toString();
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = toJson(x, element);
  return out;
}
