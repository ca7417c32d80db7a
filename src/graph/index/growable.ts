/** An append-only Int32Array that doubles as it grows (millions of edges without boxed numbers). */
export class IntList {
  private buf: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.buf = new Int32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Int32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }

  toArray(): Int32Array {
    return this.buf.subarray(0, this.length);
  }
}
