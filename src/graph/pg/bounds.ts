import type { Properties } from '../model.js';
import * as SQL from './sql.js';

/**
 * Properties with every value over MAX_PROPERTY_BYTES replaced by a marker naming its size, so no writer can store
 * a value that would take GiBs to serve (ingest refuses such files with a message before they get here).
 */
export function boundProperties(p: Properties): Properties {
  let out: Properties | undefined;
  for (const k in p) {
    const bytes = approxBytes(p[k]);
    if (bytes > SQL.MAX_PROPERTY_BYTES) {
      (out ??= { ...p })[k] = `[value of ${bytes} bytes omitted: over the ${SQL.MAX_PROPERTY_BYTES}-byte property limit]`;
    }
  }
  return out ?? p;
}

/** Size of a value as JSON, cheaply: exact enough for a limit that ordinary values are far below. */
function approxBytes(v: unknown): number {
  if (typeof v === 'string') return v.length * 3 > SQL.MAX_PROPERTY_BYTES ? Buffer.byteLength(v) + 2 : v.length;
  if (Array.isArray(v)) {
    let n = 2;
    for (const x of v) n += typeof x === 'string' ? x.length + 3 : typeof x === 'object' && x !== null ? approxBytes(x) : 8;
    return n;
  }
  if (typeof v === 'object' && v !== null) return JSON.stringify(v).length;
  return 8;
}
