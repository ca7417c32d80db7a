import yazl from 'yazl';
import type { SavedQueryModel } from '../../db/stores/queries/saved-queries-store.js';

/** A file for the caller to download. */
export interface ExportFile {
  fileName: string;
  contentType: string;
  data: Buffer;
}

/** BloodHound's TransferableSavedQuery: what export writes and import reads back. */
const transferable = (q: SavedQueryModel) => ({ query: q.query, name: q.name, description: q.description });

/** A file name from a query's name: its last path segment (as BloodHound's filepath.Base), never empty. */
function baseName(name: string): string {
  const base = name.split(/[/\\]/).filter(Boolean).pop() ?? '';
  return base === '.' || base === '..' || !base ? 'query' : base;
}

/** One query as `<name>.json`. */
export function exportOne(q: SavedQueryModel): ExportFile {
  return { fileName: `${baseName(q.name)}.json`, contentType: 'application/json', data: Buffer.from(JSON.stringify(transferable(q))) };
}

/**
 * Queries as `exported_queries.zip`, one `<name>.json` each. Two queries of one name (one owned, one shared) would
 * be two entries of one path, which unzip tools overwrite: the later ones get " (2)", " (3)".
 */
export async function exportZip(queries: readonly SavedQueryModel[]): Promise<ExportFile> {
  const zip = new yazl.ZipFile();
  const used = new Set<string>();
  for (const q of queries) {
    const base = baseName(q.name);
    let name = `${base}.json`;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base} (${n}).json`;
    used.add(name.toLowerCase());
    zip.addBuffer(Buffer.from(JSON.stringify(transferable(q))), name);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return { fileName: 'exported_queries.zip', contentType: 'application/zip', data: Buffer.concat(chunks) };
}
