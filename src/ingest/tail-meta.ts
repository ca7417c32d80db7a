import fs from 'node:fs';

/** How much of a file's end is read looking for its meta object (SharpHound's is a few hundred bytes). */
const TAIL_BYTES = 64 * 1024;

/**
 * The top-level `meta` object of a collector file written data-first (SharpHound and AzureHound write
 * `{"data": […], "meta": {…}}`), read from the end of the file on disk. With it the ingest converts items as they
 * stream instead of spooling the whole data array until `meta` arrives, so the database starts working at once.
 *
 * Only a hint: undefined unless the file's last bytes are exactly a `"meta": {…}` member closing the document. The
 * stream still meets the real `meta` and the ingest refuses the file if its type differs from the hint.
 */
export function tailMeta(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buf = Buffer.alloc(length);
      fs.readSync(fd, buf, 0, length, size - length);
      text = buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const end = text.trimEnd();
  if (!end.endsWith('}')) return undefined;
  // Candidates from the last one back: the member must be a key (`"meta"` then `:` then an object) whose object
  // is followed only by the document's closing brace.
  for (let at = end.lastIndexOf('"meta"'); at > 0; at = end.lastIndexOf('"meta"', at - 1)) {
    if (end[at - 1] === '\\') continue;
    const open = /^"meta"\s*:\s*\{/.exec(end.slice(at, at + 64));
    if (!open) continue;
    const start = at + open[0].length - 1;
    const close = objectEnd(end, start);
    if (close < 0 || end.slice(close + 1).trim() !== '}') continue;
    try {
      const meta = JSON.parse(end.slice(start, close + 1)) as unknown;
      return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Index of the brace closing the object that opens at `start`, strings and escapes respected; -1 if it never closes. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return c === 0x7d ? i : -1;
    }
  }
  return -1;
}
