import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import type { GraphStore } from '../graph/store.js';
import { IngestError, ingestStream, type FileResult, type IngestOptions } from './ingest-stream.js';

export interface PathResult {
  files: FileResult[];
  errors: IngestError[];
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const GZIP = Buffer.from([0x1f, 0x8b]);

/**
 * Ingests a file from disk: SharpHound/AzureHound JSON, a zip archive of them, or either gzip-compressed. Each
 * JSON file is its own transaction; a bad file is reported and the others still land.
 */
export async function ingestPath(
  store: GraphStore,
  file: string,
  opts: IngestOptions & { displayName?: string } = {},
): Promise<PathResult> {
  const name = opts.displayName ?? path.basename(file);
  const head = Buffer.alloc(4);
  const fd = fs.openSync(file, 'r');
  const read = fs.readSync(fd, head, 0, 4, 0);
  fs.closeSync(fd);
  const out: PathResult = { files: [], errors: [] };
  const one = async (label: string, stream: () => Readable) => {
    try {
      out.files.push(await ingestStream(store, label, stream(), opts));
    } catch (err) {
      if (err instanceof IngestError) out.errors.push(err);
      else throw err;
    }
  };
  if (read >= 4 && head.equals(ZIP)) {
    for await (const entry of zipEntries(file)) await one(`${name}:${entry.name}`, entry.open);
  } else if (read >= 2 && head.subarray(0, 2).equals(GZIP)) {
    await one(name, () => fs.createReadStream(file).pipe(zlib.createGunzip()));
  } else {
    await one(name, () => fs.createReadStream(file));
  }
  return out;
}

/** The .json entries of a zip archive, one at a time (never all in memory). */
async function* zipEntries(file: string): AsyncGenerator<{ name: string; open: () => Readable }> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        zip.once('entry', resolve);
        zip.once('end', () => resolve(undefined));
        zip.once('error', reject);
        zip.readEntry();
      });
      zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
      if (!entry) return;
      if (entry.fileName.endsWith('/') || !entry.fileName.toLowerCase().endsWith('.json') || entry.fileName.startsWith('__MACOSX'))
        continue;
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s!))),
      );
      yield { name: entry.fileName, open: () => stream };
    }
  } finally {
    zip.close();
  }
}
