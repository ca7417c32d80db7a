import fs from 'node:fs';
import os from 'node:os';

/**
 * Lowers this thread's scheduling priority to `niceness` (Linux keeps a nice value per thread; threads it starts
 * inherit it), so that on a busy machine the kernel runs the thread that answers requests first: the background
 * workers' builds and ingest take longer then, and reads do not wait for them. Elsewhere, or when refused, nothing
 * changes.
 */
export function lowerThreadPriority(niceness = 10): boolean {
  try {
    const tid = Number(/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1]);
    if (!tid) return false;
    os.setPriority(tid, Math.max(os.getPriority(tid), niceness));
    return true;
  } catch {
    return false;
  }
}
