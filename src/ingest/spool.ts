import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JsonStreamError } from './json-stream.js';
import { mayNeedRepair, repairText, type TextRepairs } from './text-repair.js';

/** Where a spooled item was in its file, for the message if it turns out to be malformed. */
export interface SpoolPosition {
  line: number;
  offset: number;
}

/** Record header: bytes of the JSON text (u32), its line (u32) and byte offset (f64) in the source file. */
const HEADER = 16;
/** Records are written in blocks of about this many bytes: few system calls for many small items. */
const BLOCK = 1 << 20;

/**
 * Items parked on disk until the file's type is known (SharpHound writes "data" before "meta"). An item is kept
 * as the JSON text it came as, unparsed: it is parsed once, when drained, and a malformed one is reported there
 * with its place in the file. The write descriptor is closed exactly once: a second close could hit a descriptor
 * the process has since reused.
 */
export class Spool {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-spool-'));
  private readonly file = path.join(this.dir, 'items.bin');
  private fd: number | undefined = fs.openSync(this.file, 'w');
  private block: Buffer[] = [];
  private blockBytes = 0;
  /** Bytes of JSON text handed out by drain() so far: what a reader holds converted, for its batch bound. */
  drainedBytes = 0;

  /** Spools a value (as JSON). */
  write(item: unknown): void {
    this.writeText(Buffer.from(JSON.stringify(item)), { line: 0, offset: 0 });
  }

  /** Spools the JSON text of an item as it was read (in one or more pieces), not yet parsed. */
  writeText(text: Buffer | readonly Buffer[], at: SpoolPosition): void {
    if (this.fd === undefined) throw new Error('spool written after it was drained');
    const parts = Buffer.isBuffer(text) ? [text] : text;
    const header = Buffer.allocUnsafe(HEADER);
    header.writeUInt32LE(
      parts.reduce((n, p) => n + p.length, 0),
      0,
    );
    header.writeUInt32LE(at.line >>> 0, 4);
    header.writeDoubleLE(at.offset, 8);
    this.block.push(header, ...parts);
    this.blockBytes += header.length + header.readUInt32LE(0);
    if (this.blockBytes >= BLOCK) this.flushBlock();
  }

  /**
   * The spooled items in order, parsed (strings PostgreSQL cannot store repaired, counted into `repairs`). The read
   * stream is destroyed however the caller stops iterating.
   */
  async *drain(repairs?: TextRepairs): AsyncGenerator<unknown> {
    this.closeWriter();
    const input = fs.createReadStream(this.file);
    try {
      let rest: Buffer = Buffer.alloc(0);
      for await (const chunk of input) {
        let buf = rest.length ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
        while (buf.length >= HEADER && buf.length >= HEADER + buf.readUInt32LE(0)) {
          const end = HEADER + buf.readUInt32LE(0);
          this.drainedBytes += end - HEADER;
          yield parse(buf.subarray(HEADER, end), { line: buf.readUInt32LE(4), offset: buf.readDoubleLE(8) }, repairs);
          buf = buf.subarray(end);
        }
        rest = buf;
      }
      if (rest.length) throw new Error(`spool file ends in the middle of a record (${rest.length} bytes left)`);
    } finally {
      input.destroy();
    }
  }

  dispose(): void {
    this.closeWriter();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private flushBlock(): void {
    if (this.fd !== undefined && this.blockBytes) fs.writeSync(this.fd, Buffer.concat(this.block, this.blockBytes));
    this.block = [];
    this.blockBytes = 0;
  }

  private closeWriter(): void {
    if (this.fd === undefined) return;
    this.flushBlock();
    const fd = this.fd;
    this.fd = undefined;
    fs.closeSync(fd);
  }
}

function parse(bytes: Buffer, at: SpoolPosition, repairs: TextRepairs | undefined): unknown {
  const text = bytes.toString('utf8');
  try {
    const value: unknown = JSON.parse(text);
    return repairs && mayNeedRepair(text) ? repairText(value, repairs) : value;
  } catch (err) {
    throw new JsonStreamError(`malformed data item: ${(err as Error).message}`, at.line, at.offset);
  }
}
