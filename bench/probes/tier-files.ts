import fs from 'node:fs';
import path from 'node:path';

/** The files `gas generate --tier … --out DIR` writes, in the order the probes ingest them (dependencies first). */
const ORDER = [
  'domains',
  'ous',
  'gpos',
  'groups',
  'users',
  'computers',
  'rootcas',
  'ntauthstores',
  'aiacas',
  'enterprisecas',
  'certtemplates',
  'azurehound',
];

/** The generated files of `dir` that exist, in ingest order, as [name, path]. */
export function tierFiles(dir: string): [string, string][] {
  return ORDER.map((name) => [name, path.join(dir, `${name}.json`)] as [string, string]).filter(([, file]) => fs.existsSync(file));
}
