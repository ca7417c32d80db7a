import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * An uploaded body spooled to disk by the HTTP layer, handed to GraphQL as the value of an `Upload` variable.
 * Only code in this process can create one (JSON variables never are instances), so a GraphQL client cannot
 * name a path on the server.
 */
export class StagedFile {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly contentType: string,
    readonly name: string,
  ) {}
}

/** What an `Upload` variable holds. */
export type UploadValue = StagedFile | File;

/** Puts an uploaded file at `target` (moving a spooled one, streaming a multipart one); returns its size in bytes. */
export async function saveUpload(file: UploadValue, target: string): Promise<number> {
  if (file instanceof StagedFile) moveFile(file.path, target);
  else await pipeline(Readable.from(readWebStream(file.stream())), fs.createWriteStream(target));
  return file.size;
}

/** Chunks of a web ReadableStream through its reader (works for Node's streams and fetch ponyfills alike). */
async function* readWebStream(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Moves a spooled upload into the job's folder (copies when the spool is on another file system). */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    fs.copyFileSync(from, to);
    fs.rmSync(from, { force: true });
  }
}
