import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Items parked on disk as JSON lines until the file's type is known (SharpHound writes "data" before "meta").
 * The write descriptor is closed exactly once: a second close could hit a descriptor the process has since reused.
 */
export class Spool {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-spool-'));
  private readonly file = path.join(this.dir, 'items.jsonl');
  private fd: number | undefined = fs.openSync(this.file, 'w');

  write(item: unknown): void {
    if (this.fd === undefined) throw new Error('spool written after it was drained');
    fs.writeSync(this.fd, JSON.stringify(item) + '\n');
  }

  /** The spooled items in order. The read stream is destroyed however the caller stops iterating. */
  async *drain(): AsyncGenerator<unknown> {
    this.closeWriter();
    const input = fs.createReadStream(this.file);
    try {
      let rest: Buffer = Buffer.alloc(0);
      for await (const chunk of input) {
        let buf = rest.length ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
        for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a)) {
          if (nl > 0) yield JSON.parse(buf.subarray(0, nl).toString('utf8'));
          buf = buf.subarray(nl + 1);
        }
        rest = buf;
      }
      if (rest.length) yield JSON.parse(rest.toString('utf8'));
    } finally {
      input.destroy();
    }
  }

  dispose(): void {
    this.closeWriter();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private closeWriter(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    fs.closeSync(fd);
  }
}
