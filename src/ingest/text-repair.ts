/** What was changed in a file's strings so PostgreSQL can store them (text and jsonb). */
export interface TextRepairs {
  /** NUL characters removed (PostgreSQL text cannot hold U+0000). */
  nulRemoved: number;
  /** UTF-16 surrogates without their pair, replaced by U+FFFD (neither UTF-8 nor jsonb can hold one). */
  surrogatesReplaced: number;
}

const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/**
 * Whether a JSON text may decode to such characters: both can only come from a `\u` escape (raw control characters
 * are invalid JSON, and invalid UTF-8 decodes to U+FFFD), so text without one is passed over with one native search.
 */
export const mayNeedRepair = (jsonText: string): boolean => jsonText.includes('\\u');

/** The string with NUL removed and lone surrogates replaced, counted into `into`. */
function repairString(s: string, into: TextRepairs): string {
  let out = s;
  if (out.includes('\u0000')) {
    const without = out.replaceAll('\u0000', '');
    into.nulRemoved += out.length - without.length;
    out = without;
  }
  if (LONE_SURROGATE.test(out)) out = out.replace(LONE_SURROGATES, () => (into.surrogatesReplaced++, '\uFFFD'));
  return out;
}

/**
 * Repairs every string (values and keys) of a parsed JSON value, in place where it is an object or array; returns
 * the value (a new one when it is itself a string). Iterative: items may nest as deep as the splitter allows.
 */
export function repairText(value: unknown, into: TextRepairs): unknown {
  if (typeof value === 'string') return repairString(value, into);
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string') v[i] = repairString(item, into);
        else if (item && typeof item === 'object') stack.push(item);
      }
    } else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      for (const key of Object.keys(o)) {
        let item = o[key];
        if (typeof item === 'string') item = o[key] = repairString(item, into);
        else if (item && typeof item === 'object') stack.push(item);
        const fixed = repairString(key, into);
        if (fixed !== key) {
          delete o[key];
          o[fixed] = item;
        }
      }
    }
  }
  return value;
}
