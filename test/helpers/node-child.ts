import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs a TypeScript file of this repository in a plain Node process (for what Jest's module sandbox cannot load,
 * such as PGlite) and parses what it printed as JSON; a failing child rejects with its stderr.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function seenByChild<T = Record<string, any>>(file: string): Promise<T> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', path.join(ROOT, file)], { cwd: ROOT, maxBuffer: 16 << 20 }, (err, out, errOut) =>
      err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(JSON.parse(out) as T),
    ),
  );
}
