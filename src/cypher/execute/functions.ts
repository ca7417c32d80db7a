import { runtimeError, unsupported } from '../errors.js';
import type { ExecContext } from './context.js';
import { display } from './operators.js';
import { DateTimeV, DateV, DurationV, durationBetween } from './temporal.js';
import { CFloat, isMap, isNumber, NodeV, nodeV, num, PathV, RelV, typeName, type MapValue, type Value } from './values.js';

/** Cypher's scalar functions (aggregates are the projection's: aggregate.ts). Names arrive lower-cased. */
export function callFunction(name: string, args: Value[], ctx: ExecContext): Value {
  const fn = FUNCTIONS[name];
  if (!fn) throw runtimeError('SemanticError', 'UnknownFunction', `Unknown function '${name}'`);
  if (args.length < fn.min || args.length > fn.max) {
    throw runtimeError(
      'SemanticError',
      'InvalidNumberOfArguments',
      `Function ${name} takes ${fn.min === fn.max ? fn.min : `${fn.min} to ${fn.max}`} arguments, got ${args.length}`,
    );
  }
  return fn.call(args, ctx);
}

/** Whether a function name is known (the analyzer's check, before anything runs). */
export const isFunction = (name: string) => name in FUNCTIONS;

interface Fn {
  min: number;
  max: number;
  call(args: Value[], ctx: ExecContext): Value;
}

const typeError = (fn: string, v: Value) =>
  runtimeError('TypeError', 'InvalidArgumentType', `Type mismatch: ${fn}() cannot take ${typeName(v)}`);

/** A function of one argument that is null on null. */
const unary = (f: (v: Exclude<Value, null>, ctx: ExecContext) => Value): Fn => ({
  min: 1,
  max: 1,
  call: ([v], ctx) => (v === null || v === undefined ? null : f(v, ctx)),
});

const str = (fn: string, f: (s: string) => Value) =>
  unary((v) => {
    if (typeof v !== 'string') throw typeError(fn, v);
    return f(v);
  });

const math = (fn: string, f: (x: number) => number) =>
  unary((v) => {
    if (!isNumber(v)) throw typeError(fn, v);
    return new CFloat(f(num(v)));
  });

const int = (v: Value, fn: string): number => {
  if (typeof v !== 'number') throw typeError(fn, v);
  return v;
};

function toInteger(v: Exclude<Value, null>, strict: boolean): Value {
  if (typeof v === 'number') return v;
  if (v instanceof CFloat) return Number.isFinite(v.v) ? Math.trunc(v.v) : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^[+-]?\d+$/.test(t)) return Number(t);
    const f = Number(t);
    return t !== '' && Number.isFinite(f) ? Math.trunc(f) : null;
  }
  if (strict) throw typeError('toInteger', v);
  return null;
}

function toFloat(v: Exclude<Value, null>, strict: boolean): Value {
  if (isNumber(v)) return new CFloat(num(v));
  if (typeof v === 'string') {
    const t = v.trim();
    const f = Number(t);
    return t !== '' && !Number.isNaN(f) ? new CFloat(f) : null;
  }
  if (strict) throw typeError('toFloat', v);
  return null;
}

function toBoolean(v: Exclude<Value, null>, strict: boolean): Value {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    return t === 'true' ? true : t === 'false' ? false : null;
  }
  if (typeof v === 'number') return v !== 0;
  if (strict) throw typeError('toBoolean', v);
  return null;
}

function toStringValue(v: Exclude<Value, null>, strict: boolean): Value {
  if (typeof v === 'string') return v;
  if (isNumber(v)) return display(v);
  if (typeof v === 'boolean') return String(v);
  if (v instanceof DateTimeV || v instanceof DateV || v instanceof DurationV) return v.toString();
  if (strict) throw typeError('toString', v);
  return null;
}

function size(v: Exclude<Value, null>): Value {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (isMap(v)) return Object.keys(v).length;
  throw typeError('size', v);
}

function properties(v: Exclude<Value, null>, ctx: ExecContext): Value {
  if (v instanceof NodeV) return ctx.graph.nodeProperties(v.id);
  if (v instanceof RelV) return ctx.graph.relProperties(v);
  if (isMap(v)) return { ...v };
  throw typeError('properties', v);
}

function keys(v: Exclude<Value, null>, ctx: ExecContext): Value {
  if (v instanceof NodeV) return Object.keys(ctx.graph.nodeProperties(v.id));
  if (v instanceof RelV) return Object.keys(ctx.graph.relProperties(v));
  if (isMap(v)) return Object.keys(v);
  throw typeError('keys', v);
}

function range(args: Value[], ctx: ExecContext): Value {
  if (args.some((a) => a === null)) return null;
  const bound = (v: Value) => {
    if (typeof v !== 'number') throw runtimeError('ArgumentError', 'InvalidArgumentType', `range() takes integers, got ${typeName(v)}`);
    return v;
  };
  const start = bound(args[0]!);
  const end = bound(args[1]!);
  const step = args.length > 2 ? bound(args[2]!) : 1;
  if (step === 0) throw runtimeError('ArgumentError', 'NumberOutOfRange', 'range() step must not be zero');
  const n = Math.max(0, Math.floor((end - start) / step) + 1);
  // The list is checked against the memory budget before it is made: range(1, 1e12) must not be allocated.
  ctx.budget.hold(n);
  ctx.budget.release(n);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = start + i * step;
  return out;
}

function substring(args: Value[]): Value {
  const [s, start, len] = args;
  if (s === null || s === undefined) return null;
  if (typeof s !== 'string') throw typeError('substring', s);
  const a = int(start!, 'substring');
  if (a < 0) throw runtimeError('ArgumentError', 'NumberOutOfRange', 'substring() start must not be negative');
  if (len === undefined || len === null) return s.slice(a);
  const l = int(len, 'substring');
  if (l < 0) throw runtimeError('ArgumentError', 'NumberOutOfRange', 'substring() length must not be negative');
  return s.slice(a, a + l);
}

function trimChars(s: string, chars: string | undefined, side: 'both' | 'left' | 'right'): string {
  if (chars === undefined) return side === 'both' ? s.trim() : side === 'left' ? s.trimStart() : s.trimEnd();
  let a = 0;
  let b = s.length;
  if (side !== 'right') while (a < b && chars.includes(s[a]!)) a++;
  if (side !== 'left') while (b > a && chars.includes(s[b - 1]!)) b--;
  return s.slice(a, b);
}

const trimFn = (side: 'both' | 'left' | 'right'): Fn => ({
  min: 1,
  max: 2,
  call: ([s, chars]) => {
    if (s === null || chars === null) return null;
    if (typeof s !== 'string') throw typeError('trim', s!);
    return trimChars(s, typeof chars === 'string' ? chars : undefined, side);
  },
});

function datetime(args: Value[], ctx: ExecContext): Value {
  const [v] = args;
  if (v === undefined) return ctx.now;
  if (v === null) return null;
  if (typeof v === 'string') {
    const d = DateTimeV.parse(v);
    if (!d) throw runtimeError('ArgumentError', 'InvalidArgumentValue', `Text cannot be parsed to a DateTime: "${v}"`);
    return d;
  }
  if (isMap(v)) {
    if (isNumber(v.epochSeconds ?? v.epochseconds ?? null)) return new DateTimeV(num((v.epochSeconds ?? v.epochseconds) as number) * 1000);
    if (isNumber(v.epochMillis ?? v.epochmillis ?? null)) return new DateTimeV(num((v.epochMillis ?? v.epochmillis) as number));
    const n = (k: string, d: number) => (isNumber(v[k] ?? null) ? num(v[k] as number) : d);
    return new DateTimeV(
      Date.UTC(n('year', 1970), n('month', 1) - 1, n('day', 1), n('hour', 0), n('minute', 0), n('second', 0), n('millisecond', 0)),
    );
  }
  if (v instanceof DateTimeV) return v;
  throw typeError('datetime', v);
}

function date(args: Value[], ctx: ExecContext): Value {
  const [v] = args;
  if (v === undefined) return DateV.ofMillis(ctx.now.epochMillis);
  if (v === null) return null;
  if (typeof v === 'string') {
    const d = DateV.parse(v) ?? (DateTimeV.parse(v) && DateV.ofMillis(DateTimeV.parse(v)!.epochMillis));
    if (!d) throw runtimeError('ArgumentError', 'InvalidArgumentValue', `Text cannot be parsed to a Date: "${v}"`);
    return d;
  }
  if (v instanceof DateTimeV) return DateV.ofMillis(v.epochMillis);
  if (isMap(v)) {
    const n = (k: string, d: number) => (isNumber(v[k] ?? null) ? num(v[k] as number) : d);
    return DateV.ofMillis(Date.UTC(n('year', 1970), n('month', 1) - 1, n('day', 1)));
  }
  throw typeError('date', v);
}

function duration([v]: Value[]): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    const d = DurationV.parse(v);
    if (!d) throw runtimeError('ArgumentError', 'InvalidArgumentValue', `Text cannot be parsed to a Duration: "${v}"`);
    return d;
  }
  if (isMap(v)) {
    const m: Record<string, number> = {};
    for (const [k, x] of Object.entries(v as MapValue)) if (isNumber(x)) m[k] = num(x);
    return DurationV.fromMap(m);
  }
  throw typeError('duration', v);
}

const FUNCTIONS: Record<string, Fn> = {
  id: unary((v) => {
    if (v instanceof NodeV || v instanceof RelV) return v.id;
    throw typeError('id', v);
  }),
  elementid: unary((v) => {
    if (v instanceof NodeV) return `n:${v.id}`;
    if (v instanceof RelV) return `r:${v.id}`;
    throw typeError('elementId', v);
  }),
  labels: unary((v, ctx) => {
    if (v instanceof NodeV) return ctx.graph.labels(v.id);
    throw typeError('labels', v);
  }),
  type: unary((v) => {
    if (v instanceof RelV) return v.type;
    throw typeError('type', v);
  }),
  keys: unary(keys),
  properties: unary(properties),
  startnode: unary((v) => {
    if (v instanceof RelV) return nodeV(v.start);
    throw typeError('startNode', v);
  }),
  endnode: unary((v) => {
    if (v instanceof RelV) return nodeV(v.end);
    throw typeError('endNode', v);
  }),
  nodes: unary((v) => {
    if (v instanceof PathV) return [...v.nodes];
    throw typeError('nodes', v);
  }),
  relationships: unary((v) => {
    if (v instanceof PathV) return [...v.rels];
    throw typeError('relationships', v);
  }),
  rels: unary((v) => {
    if (v instanceof PathV) return [...v.rels];
    throw typeError('rels', v);
  }),
  length: unary((v) => {
    if (v instanceof PathV) return v.rels.length;
    if (typeof v === 'string' || Array.isArray(v)) return size(v);
    throw typeError('length', v);
  }),
  size: unary(size),
  char_length: str('char_length', (s) => [...s].length),
  character_length: str('character_length', (s) => [...s].length),
  isempty: unary((v) => {
    if (typeof v === 'string') return v.length === 0;
    if (Array.isArray(v)) return v.length === 0;
    if (isMap(v)) return Object.keys(v).length === 0;
    throw typeError('isEmpty', v);
  }),
  head: unary((v) => {
    if (Array.isArray(v)) return v[0] ?? null;
    throw typeError('head', v);
  }),
  last: unary((v) => {
    if (Array.isArray(v)) return v[v.length - 1] ?? null;
    throw typeError('last', v);
  }),
  tail: unary((v) => {
    if (Array.isArray(v)) return v.slice(1);
    throw typeError('tail', v);
  }),
  reverse: unary((v) => {
    if (typeof v === 'string') return [...v].reverse().join('');
    if (Array.isArray(v)) return [...v].reverse();
    throw typeError('reverse', v);
  }),
  range: { min: 2, max: 3, call: range },
  coalesce: { min: 1, max: Infinity, call: (args) => args.find((a) => a !== null) ?? null },
  tolower: str('toLower', (s) => s.toLowerCase()),
  lower: str('lower', (s) => s.toLowerCase()),
  toupper: str('toUpper', (s) => s.toUpperCase()),
  upper: str('upper', (s) => s.toUpperCase()),
  trim: trimFn('both'),
  ltrim: trimFn('left'),
  rtrim: trimFn('right'),
  btrim: trimFn('both'),
  replace: {
    min: 3,
    max: 3,
    call: ([s, from, to]) => {
      if (s === null || from === null || to === null) return null;
      if (typeof s !== 'string' || typeof from !== 'string' || typeof to !== 'string') throw typeError('replace', s!);
      return s.split(from).join(to);
    },
  },
  substring: { min: 2, max: 3, call: substring },
  left: {
    min: 2,
    max: 2,
    call: ([s, n]) => {
      if (s === null) return null;
      if (typeof s !== 'string') throw typeError('left', s!);
      const k = int(n!, 'left');
      if (k < 0) throw runtimeError('ArgumentError', 'NumberOutOfRange', 'left() length must not be negative');
      return s.slice(0, k);
    },
  },
  right: {
    min: 2,
    max: 2,
    call: ([s, n]) => {
      if (s === null) return null;
      if (typeof s !== 'string') throw typeError('right', s!);
      const k = int(n!, 'right');
      if (k < 0) throw runtimeError('ArgumentError', 'NumberOutOfRange', 'right() length must not be negative');
      return k === 0 ? '' : s.slice(-k);
    },
  },
  split: {
    min: 2,
    max: 2,
    call: ([s, d]) => {
      if (s === null || d === null) return null;
      if (typeof s !== 'string' || typeof d !== 'string') throw typeError('split', s!);
      return s.split(d);
    },
  },
  tostring: unary((v) => toStringValue(v, true)),
  tostringornull: unary((v) => toStringValue(v, false)),
  tointeger: unary((v) => toInteger(v, true)),
  tointegerornull: unary((v) => toInteger(v, false)),
  tofloat: unary((v) => toFloat(v, true)),
  tofloatornull: unary((v) => toFloat(v, false)),
  toboolean: unary((v) => toBoolean(v, true)),
  tobooleanornull: unary((v) => toBoolean(v, false)),
  abs: unary((v) => {
    if (typeof v === 'number') return Math.abs(v);
    if (v instanceof CFloat) return new CFloat(Math.abs(v.v));
    throw typeError('abs', v);
  }),
  ceil: math('ceil', Math.ceil),
  floor: math('floor', Math.floor),
  round: { min: 1, max: 3, call: ([v, p]) => roundValue(v ?? null, p ?? null) },
  sign: unary((v) => {
    if (!isNumber(v)) throw typeError('sign', v);
    return Math.sign(num(v));
  }),
  sqrt: math('sqrt', Math.sqrt),
  exp: math('exp', Math.exp),
  log: math('log', Math.log),
  log10: math('log10', Math.log10),
  sin: math('sin', Math.sin),
  cos: math('cos', Math.cos),
  tan: math('tan', Math.tan),
  asin: math('asin', Math.asin),
  acos: math('acos', Math.acos),
  atan: math('atan', Math.atan),
  degrees: math('degrees', (x) => (x * 180) / Math.PI),
  radians: math('radians', (x) => (x * Math.PI) / 180),
  pi: { min: 0, max: 0, call: () => new CFloat(Math.PI) },
  e: { min: 0, max: 0, call: () => new CFloat(Math.E) },
  rand: { min: 0, max: 0, call: () => new CFloat(Math.random()) },
  timestamp: { min: 0, max: 0, call: (_a, ctx) => ctx.now.epochMillis },
  datetime: { min: 0, max: 1, call: datetime },
  'datetime.fromepoch': {
    min: 1,
    max: 2,
    call: ([s, n]) => (s === null ? null : new DateTimeV(num(s as number) * 1000 + (n ? num(n as number) / 1e6 : 0))),
  },
  'datetime.fromepochmillis': { min: 1, max: 1, call: ([ms]) => (ms === null ? null : new DateTimeV(num(ms as number))) },
  'datetime.realtime': { min: 0, max: 1, call: () => new DateTimeV(Date.now()) },
  'datetime.transaction': { min: 0, max: 1, call: (_a, ctx) => ctx.now },
  'datetime.statement': { min: 0, max: 1, call: (_a, ctx) => ctx.now },
  date: { min: 0, max: 1, call: date },
  duration: { min: 1, max: 1, call: duration },
  'duration.between': {
    min: 2,
    max: 2,
    call: ([a, b]) => {
      if (a === null || b === null) return null;
      if ((a instanceof DateTimeV || a instanceof DateV) && (b instanceof DateTimeV || b instanceof DateV)) return durationBetween(a, b);
      throw typeError('duration.between', a!);
    },
  },
  'duration.indays': {
    min: 2,
    max: 2,
    call: ([a, b]) => {
      if (a === null || b === null) return null;
      if ((a instanceof DateTimeV || a instanceof DateV) && (b instanceof DateTimeV || b instanceof DateV)) {
        const d = durationBetween(a, b);
        return new DurationV(0, d.days, 0, 0);
      }
      throw typeError('duration.inDays', a!);
    },
  },
  /** Neo4j 4's exists(n.prop): whether the value is there (its pattern form is a pattern predicate). */
  exists: unary((v) => (Array.isArray(v) ? v.length > 0 : true)),
  nullif: { min: 2, max: 2, call: ([a, b]) => (a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b) ? null : a!) },
  valuetype: unary(() => {
    throw unsupported('valueType()');
  }),
};

function roundValue(v: Value, precision: Value): Value {
  if (v === null) return null;
  if (!isNumber(v)) throw typeError('round', v);
  const x = num(v);
  if (precision === null || precision === undefined) return new CFloat(Math.sign(x) * Math.round(Math.abs(x)) || Math.round(x));
  const p = int(precision, 'round');
  const f = 10 ** p;
  return new CFloat(Math.round(x * f) / f);
}
