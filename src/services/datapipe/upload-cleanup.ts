import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../logger.js';

export interface CleanupOptions {
  /** DATA_DIR/uploads: `incoming/` (bodies being received) and one folder per upload job. */
  uploadsDir: string;
  /** Paths of uploaded files still waiting for ingest: never removed. */
  keep: () => Promise<string[]>;
  log: Logger;
  /**
   * Only what was not written for this long is removed: another replica sharing the folder may be receiving a body
   * right now, and a file is moved into its job folder a moment before its row is written. @default 15 minutes
   */
  olderThanMs?: number;
  /** Where ingest spools items that precede `meta` (gas-spool-*). @default os.tmpdir() */
  spoolDir?: string;
}

/**
 * Start-up cleanup after a crash: request bodies that were never taken over, files of jobs that ended (or whose
 * rows are gone), and ingest spools left in the temp folder. Returns how many files and folders it removed.
 */
export async function cleanLeftoverUploads(opts: CleanupOptions): Promise<number> {
  const olderThan = Date.now() - (opts.olderThanMs ?? 15 * 60_000);
  const keep = new Set((await opts.keep()).map((p) => path.resolve(p)));
  const stale = (p: string) => {
    try {
      return fs.statSync(p).mtimeMs < olderThan;
    } catch {
      return false;
    }
  };
  let removed = 0;
  const remove = (p: string) => {
    fs.rmSync(p, { recursive: true, force: true });
    removed++;
  };
  for (const name of list(opts.uploadsDir)) {
    const dir = path.join(opts.uploadsDir, name);
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const file of list(dir)) {
      const p = path.join(dir, file);
      if (!keep.has(path.resolve(p)) && stale(p)) remove(p);
    }
    if (name !== 'incoming' && list(dir).length === 0 && stale(dir)) remove(dir);
  }
  const spoolDir = opts.spoolDir ?? os.tmpdir();
  for (const name of list(spoolDir).filter((n) => n.startsWith('gas-spool-'))) {
    const dir = path.join(spoolDir, name);
    // A spool is live while its items file is written or read back; only long-untouched ones are leftovers.
    if (stale(dir) && list(dir).every((f) => stale(path.join(dir, f)))) remove(dir);
  }
  if (removed) opts.log.info({ removed }, 'removed leftover uploads and spools from an earlier run');
  return removed;
}

function list(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
