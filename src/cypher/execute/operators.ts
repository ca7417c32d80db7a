import { runtimeError } from '../errors.js';
import { DateTimeV, DateV, DurationV } from './temporal.js';
import { CFloat, isNumber, num, typeName, type Value } from './values.js';

/** Cypher's integers are 64-bit: a result past them is an error, not a silently rounded float. */
const INT_LIMIT = 2 ** 63;

function int(v: number): number {
  if (!Number.isSafeInteger(v) && Math.abs(v) >= INT_LIMIT) throw runtimeError('ArgumentError', 'IntegerOverflow', 'Integer overflow');
  return v;
}

/** `+ - * / % ^` on numbers, `+` on strings and lists, temporal ± duration. */
export function arithmetic(op: '+' | '-' | '*' | '/' | '%' | '^', l: Value, r: Value): Value {
  if (l === null || r === null) return null;
  if (typeof l === 'number' && typeof r === 'number') {
    switch (op) {
      case '+':
        return int(l + r);
      case '-':
        return int(l - r);
      case '*':
        return int(l * r);
      case '/':
        if (r === 0) throw runtimeError('ArgumentError', 'DivisionByZero', '/ by zero');
        return Math.trunc(l / r);
      case '%':
        if (r === 0) throw runtimeError('ArgumentError', 'DivisionByZero', '/ by zero');
        return l % r;
      case '^':
        return new CFloat(l ** r);
    }
  }
  if (isNumber(l) && isNumber(r)) {
    const a = num(l);
    const b = num(r);
    switch (op) {
      case '+':
        return new CFloat(a + b);
      case '-':
        return new CFloat(a - b);
      case '*':
        return new CFloat(a * b);
      case '/':
        return new CFloat(a / b);
      case '%':
        return new CFloat(a % b);
      case '^':
        return new CFloat(a ** b);
    }
  }
  if (op === '+') {
    if (Array.isArray(l)) return Array.isArray(r) ? [...l, ...r] : [...l, r];
    if (Array.isArray(r)) return [l, ...r];
    if (typeof l === 'string' && (typeof r === 'string' || isNumber(r))) return l + display(r);
    if (typeof r === 'string' && isNumber(l)) return display(l) + r;
  }
  const temporal = temporalArithmetic(op, l, r);
  if (temporal !== undefined) return temporal;
  throw runtimeError('TypeError', 'InvalidArgumentType', `Cannot apply ${op} to ${typeName(l)} and ${typeName(r)}`);
}

function temporalArithmetic(op: string, l: Value, r: Value): Value | undefined {
  if ((l instanceof DateTimeV || l instanceof DateV) && r instanceof DurationV) {
    if (op === '+') return l.plus(r);
    if (op === '-') return l.plus(r.negate());
  }
  if (l instanceof DurationV && (r instanceof DateTimeV || r instanceof DateV) && op === '+') return r.plus(l);
  if (l instanceof DurationV && r instanceof DurationV) {
    if (op === '+') return l.plus(r);
    if (op === '-') return l.plus(r.negate());
  }
  if (l instanceof DurationV && isNumber(r) && (op === '*' || op === '/')) {
    const f = op === '*' ? num(r) : 1 / num(r);
    return new DurationV(Math.trunc(l.months * f), Math.trunc(l.days * f), Math.trunc(l.seconds * f), Math.trunc(l.nanos * f));
  }
  return undefined;
}

/** A number as `toString` writes it: floats always with a decimal point (1.0, not 1). */
export function display(v: number | CFloat | string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  const x = v.v;
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return `${x}.0`;
  const s = String(x);
  return s.includes('e') && !s.includes('.') ? s.replace('e', '.0E') : s.replace('e', 'E');
}

const regexCache = new Map<string, RegExp>();
const MAX_CACHED = 256;

/**
 * `=~`: the whole string must match (Java's `matches`). Leading inline flags `(?i)`, `(?s)`, `(?m)`, which
 * BloodHound users write for case-insensitive matches, become JavaScript flags. A bad pattern is an ArgumentError.
 */
export function regexMatch(s: string, pattern: string): boolean {
  let re = regexCache.get(pattern);
  if (!re) {
    let flags = 'u';
    let body = pattern;
    const inline = /^\(\?([ismx]+)\)/.exec(body);
    if (inline) {
      body = body.slice(inline[0].length);
      for (const f of inline[1]!) if (f !== 'x' && !flags.includes(f)) flags += f;
    }
    try {
      re = new RegExp(`^(?:${body})$`, flags);
    } catch {
      try {
        re = new RegExp(`^(?:${body})$`, flags.replace('u', ''));
      } catch {
        throw runtimeError('ArgumentError', 'InvalidArgumentValue', `Invalid regular expression: ${pattern}`);
      }
    }
    if (regexCache.size >= MAX_CACHED) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re.test(s);
}
