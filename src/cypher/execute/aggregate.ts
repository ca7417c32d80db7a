import { runtimeError } from '../errors.js';
import { CFloat, compare, isNumber, keyOf, NodeV, num, orderCompare, type Value } from './values.js';
import { DurationV } from './temporal.js';

/** One aggregate's running state for one group. */
export interface Accumulator {
  add(v: Value): void;
  result(): Value;
}

/** A new accumulator for count, collect, sum, avg, min, max, stdev(p), percentileCont/Disc; DISTINCT keeps a seen set. */
export function accumulator(name: string, distinct: boolean, extra: Value[] = []): Accumulator {
  const inner = base(name, extra);
  if (!distinct) return inner;
  const seen = new Set<string>();
  // Nodes by id: collect(DISTINCT m) over a scan meets one a row, and a string key each is most of its cost.
  const nodes = new Set<number>();
  return {
    add(v) {
      if (v === null) return;
      if (v instanceof NodeV) {
        if (nodes.has(v.id)) return;
        nodes.add(v.id);
      } else {
        const k = keyOf(v);
        if (seen.has(k)) return;
        seen.add(k);
      }
      inner.add(v);
    },
    result: () => inner.result(),
  };
}

function base(name: string, extra: Value[]): Accumulator {
  switch (name) {
    case 'count': {
      let n = 0;
      return { add: (v) => void (v !== null && n++), result: () => n };
    }
    case 'countstar': {
      let n = 0;
      return { add: () => void n++, result: () => n };
    }
    case 'collect': {
      const out: Value[] = [];
      return { add: (v) => void (v !== null && out.push(v)), result: () => out };
    }
    case 'sum': {
      let int = 0;
      let flt = 0;
      let isFloat = false;
      let dur: DurationV | undefined;
      return {
        add(v) {
          if (v === null) return;
          if (v instanceof DurationV) dur = dur ? dur.plus(v) : v;
          else if (typeof v === 'number') int += v;
          else if (v instanceof CFloat) {
            isFloat = true;
            flt += v.v;
          } else throw runtimeError('TypeError', 'InvalidArgumentType', 'sum() takes numbers or durations');
        },
        result: () => dur ?? (isFloat ? new CFloat(int + flt) : int),
      };
    }
    case 'avg': {
      let sum = 0;
      let n = 0;
      return {
        add(v) {
          if (v === null) return;
          if (!isNumber(v)) throw runtimeError('TypeError', 'InvalidArgumentType', 'avg() takes numbers');
          sum += num(v);
          n++;
        },
        result: () => (n ? new CFloat(sum / n) : null),
      };
    }
    case 'min':
    case 'max': {
      let best: Value = null;
      const sign = name === 'min' ? 1 : -1;
      return {
        add(v) {
          if (v === null) return;
          if (best === null) best = v;
          else {
            // Within one type by value; across types by the ORDER BY order (Neo4j's min/max over mixed values).
            const c = compare(v, best) ?? orderCompare(v, best);
            if (c * sign < 0) best = v;
          }
        },
        result: () => best,
      };
    }
    case 'stdev':
    case 'stdevp': {
      const xs: number[] = [];
      return {
        add(v) {
          if (v === null) return;
          if (!isNumber(v)) throw runtimeError('TypeError', 'InvalidArgumentType', `${name}() takes numbers`);
          xs.push(num(v));
        },
        result() {
          const n = xs.length;
          const denominator = name === 'stdev' ? n - 1 : n;
          if (n === 0 || denominator <= 0) return new CFloat(0);
          const mean = xs.reduce((a, b) => a + b, 0) / n;
          return new CFloat(Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / denominator));
        },
      };
    }
    case 'percentilecont':
    case 'percentiledisc': {
      const xs: number[] = [];
      let anyFloat = false;
      const p = extra[0];
      if (!isNumber(p ?? null) || num(p as number) < 0 || num(p as number) > 1) {
        throw runtimeError('ArgumentError', 'NumberOutOfRange', `${name}() percentile must be between 0.0 and 1.0`);
      }
      const pct = num(p as number);
      return {
        add(v) {
          if (v === null) return;
          if (!isNumber(v)) throw runtimeError('TypeError', 'InvalidArgumentType', `${name}() takes numbers`);
          if (v instanceof CFloat) anyFloat = true;
          xs.push(num(v));
        },
        result() {
          if (!xs.length) return null;
          xs.sort((a, b) => a - b);
          if (name === 'percentiledisc') {
            const i = pct === 0 ? 0 : Math.ceil(pct * xs.length) - 1;
            const v = xs[Math.max(0, i)]!;
            return anyFloat ? new CFloat(v) : v;
          }
          const pos = pct * (xs.length - 1);
          const lo = Math.floor(pos);
          const hi = Math.ceil(pos);
          return new CFloat(xs[lo]! + (xs[hi]! - xs[lo]!) * (pos - lo));
        },
      };
    }
    default:
      throw runtimeError('SemanticError', 'UnknownFunction', `Unknown aggregate ${name}`);
  }
}
