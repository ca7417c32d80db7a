import fs from 'node:fs';
import path from 'node:path';

/** DATA_DIR belongs to another running gas process: two services on one cluster would fight over it. */
export class EmbeddedInUse extends Error {
  readonly code = 'EBUSY';
  constructor(dataDir: string, pid: number | undefined) {
    super(
      `DATA_DIR ${dataDir} is in use by another gas process${pid ? ` (pid ${pid})` : ''}: stop it, or set DATA_DIR to ` +
        `another directory (or DATABASE_URL to a PostgreSQL server); if no gas process uses it, remove ${path.join(dataDir, 'embedded.lock')}`,
    );
  }
}

/** Whether a process with this pid exists (the CLI uses it to find a running server too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock file younger than this with no pid in it yet belongs to a process that is just starting. */
const STARTING_MS = 10_000;

/**
 * Takes DATA_DIR for this process: `embedded.lock`, created exclusively (O_EXCL) with our pid in it. A lock whose
 * process is gone (a service killed with SIGKILL) is stale and taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'embedded.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let text = '';
      let age = Infinity;
      try {
        text = fs.readFileSync(file, 'utf8').trim();
        age = Date.now() - fs.statSync(file).mtimeMs;
      } catch {
        continue; // removed meanwhile: try again
      }
      const pid = Number(text);
      if (Number.isInteger(pid) && pid > 0 ? isAlive(pid) : age < STARTING_MS) {
        throw new EmbeddedInUse(dataDir, pid || undefined);
      }
      fs.rmSync(file, { force: true });
      continue;
    }
    fs.writeSync(fd, String(process.pid));
    fs.closeSync(fd);
    return () => {
      try {
        if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
      } catch {
        // already gone
      }
    };
  }
  throw new EmbeddedInUse(dataDir, undefined);
}
