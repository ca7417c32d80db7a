/**
 * Edge rows in COPY's text format written straight into large buffers: `start \t end \t kind \t properties \n`, the
 * ids as decimal digits, the kind and the properties as bytes encoded once per batch. Made per row as a string, a
 * row was a template string, then part of a joined chunk string, then encoded into a buffer again: on a tier-M
 * ingest ~1.8 million of each on the writer's thread, which shares two cores with the database it feeds.
 */
const CHUNK_BYTES = 1 << 20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const ZERO = 0x30;

export class EdgeCopyRows {
  private readonly full: Buffer[] = [];
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private at = 0;
  private count = 0;

  /** Rows written. */
  get rows(): number {
    return this.count;
  }

  /**
   * One row. `kind` is the kind id's digits between two tabs (`\t12\t`), `properties` the properties in COPY text
   * (see copyJsonText); both are shared by many rows.
   */
  add(start: number, end: number, kind: Uint8Array, properties: Uint8Array): void {
    const need = 40 + kind.length + properties.length; // two ids of at most 16 digits, a tab, a line break
    if (this.at + need > this.buf.length) this.next(need);
    const buf = this.buf;
    let at = digits(buf, this.at, start);
    buf[at++] = TAB;
    at = digits(buf, at, end);
    // A few bytes: copied here, where set() costs a call into the runtime.
    for (let k = 0; k < kind.length; k++) buf[at++] = kind[k]!;
    buf.set(properties, at);
    at += properties.length;
    buf[at++] = NEWLINE;
    this.at = at;
    this.count++;
  }

  /** The rows as chunks for a COPY; the encoder takes no more rows after this. */
  chunks(): Buffer[] {
    if (this.at) this.full.push(this.buf.subarray(0, this.at));
    this.buf = Buffer.alloc(0);
    this.at = 0;
    return this.full;
  }

  private next(need: number): void {
    if (this.at) this.full.push(this.buf.subarray(0, this.at));
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, need));
    this.at = 0;
  }
}

/** Writes a non-negative integer's decimal digits at `at`; returns where they end. */
function digits(buf: Buffer, at: number, n: number): number {
  if (n > 0x7fffffff) return bigDigits(buf, at, n);
  // Ids fit in 31 bits: integer division stays in small integers.
  let len = 1;
  for (let x = n; x >= 10; x = (x / 10) | 0) len++;
  for (let i = at + len - 1; i >= at; i--) {
    const q = (n / 10) | 0;
    buf[i] = ZERO + n - q * 10;
    n = q;
  }
  return at + len;
}

function bigDigits(buf: Buffer, at: number, n: number): number {
  let len = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) len++;
  for (let i = at + len - 1; i >= at; i--) {
    buf[i] = ZERO + (n % 10);
    n = Math.floor(n / 10);
  }
  return at + len;
}
