import fs from 'node:fs';

/** Told as generated files are written: the file, objects written so far of all files, and about how many there will be. */
export type GenerateProgress = (p: { file: string; objects: number; planned: number }) => void;

/** A small deterministic PRNG (mulberry32): generated data and property tests are reproducible from a seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes a collector file one object at a time, so any size can be produced in constant memory. Like the real
 * collectors, `data` comes first and `meta` (with the true count) last, unless `metaFirst` is asked for.
 */
export class JsonArrayWriter {
  private readonly fd: number;
  private first = true;
  private count = 0;
  bytes = 0;
  constructor(
    file: string,
    private readonly meta: Record<string, unknown>,
    private readonly metaFirst = false,
    /** Told the objects written so far, every 1,000 objects and at the end (progress). */
    private readonly onCount?: (objects: number) => void,
  ) {
    this.fd = fs.openSync(file, 'w');
    this.write(metaFirst ? `{"meta":${JSON.stringify(meta)},"data":[\n` : `{"data":[\n`);
  }
  add(o: unknown): void {
    this.write((this.first ? '' : ',\n') + JSON.stringify(o));
    this.first = false;
    if (++this.count % 1000 === 0) this.onCount?.(this.count);
  }
  close(): number {
    this.write(this.metaFirst ? '\n]}\n' : `\n],"meta":${JSON.stringify({ ...this.meta, count: this.count })}}\n`);
    fs.closeSync(this.fd);
    this.onCount?.(this.count);
    return this.count;
  }
  private write(s: string): void {
    this.bytes += fs.writeSync(this.fd, s);
  }
}
