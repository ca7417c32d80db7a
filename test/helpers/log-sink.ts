import { Writable } from 'node:stream';

/** A log destination that keeps every line written to it, for tests that read what the service logged. */
export function logSink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { stream, lines };
}
