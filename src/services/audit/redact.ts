/** Field names whose values never reach the audit log (passwords, codes, keys, tokens, OAuth codes and states, uploaded bytes). */
const SECRET = /secret|password|passwd|otp|token|key|credential|assertion|samlresponse|metadata|content|file|upload|^code$|state$/i;
const MAX_DEPTH = 6;
const MAX_TEXT = 512;
const MAX_ITEMS = 50;

/** A copy of a mutation's arguments fit for the audit log: secrets replaced, long values cut, depth bounded. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => redact(v, depth + 1));
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return '[value]';
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[k] = SECRET.test(k) ? (v === null || v === undefined ? null : '[redacted]') : redact(v, depth + 1);
    return out;
  }
  return '[value]';
}
