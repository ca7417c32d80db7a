import { Transform, type TransformCallback } from 'node:stream';
import type { IngestProgress } from './ingest-types.js';

/**
 * Progress of one path: bytes read from disk (an archive entry's decompressed bytes scaled to its compressed size),
 * and objects and edges added up over the path's files, reported as each batch is written.
 */
export class Meter {
  private read = 0;
  /** Bytes of the entries before the current one, and the current entry's compressed ÷ decompressed size. */
  private before = 0;
  private ratio = 1;
  private entrySize: number | undefined;
  private objectsBefore = 0;
  private edgesBefore = 0;
  private objects = 0;
  private edges = 0;
  private label: string;

  constructor(
    name: string,
    private readonly total: number,
    private readonly report: (p: IngestProgress) => void,
  ) {
    this.label = name;
  }

  /** A pass-through that counts the bytes flowing through it. */
  tap(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc, done: TransformCallback) => {
        this.read = Math.min(this.total, this.read + chunk.length * this.ratio);
        this.emit();
        done(null, chunk);
      },
    });
  }

  /** The next archive entry's sizes. */
  compressed(compressedSize: number, uncompressedSize: number): void {
    this.before = this.read;
    this.entrySize = compressedSize;
    this.ratio = uncompressedSize > 0 ? compressedSize / uncompressedSize : 1;
  }

  /** The stream-level progress callback of one file (or entry), also passed on to `inner`. */
  entry(label: string, inner?: (objects: number, edges: number) => void): (objects: number, edges: number) => void {
    this.label = label;
    return (objects, edges) => {
      inner?.(objects, edges);
      this.objects = this.objectsBefore + objects;
      this.edges = this.edgesBefore + edges;
      this.emit();
    };
  }

  /** The path is done: every byte of it counts as read (an archive's headers and directory too). */
  finish(): void {
    this.read = this.total;
    this.emit();
  }

  /** A file (or entry) ended, written or refused: its bytes are all read. */
  entryDone(): void {
    this.read = this.entrySize === undefined ? this.total : Math.min(this.total, this.before + this.entrySize);
    this.objectsBefore = this.objects;
    this.edgesBefore = this.edges;
    this.emit();
  }

  private emit(): void {
    this.report({ file: this.label, bytesRead: Math.round(this.read), bytesTotal: this.total, objects: this.objects, edges: this.edges });
  }
}
