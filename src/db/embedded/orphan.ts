import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../logger.js';
import { isAlive } from './lock.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function gone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}

/** Whether `pid` is a postgres whose working directory is `dir` (the postmaster works in its data directory). */
function servesDir(pid: number, dir: string): boolean {
  try {
    return fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(dir);
  } catch {
    return false;
  }
}

/**
 * Called with DATA_DIR locked, before the cluster starts. A postgres still running on `dir` was left by a service
 * killed without closing it (SIGKILL, OOM): it is stopped (fast shutdown, then immediate) so this start owns the
 * cluster, and its clients' uncommitted work rolls back as on any crash. A postmaster.pid naming no such process
 * (stale, its pid reused, or unreadable) is removed, so PostgreSQL does not refuse to start over it.
 */
export async function stopOrphan(dir: string, log: Logger): Promise<void> {
  const file = path.join(dir, 'postmaster.pid');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return;
  }
  const pid = Number(text.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && servesDir(pid, dir)) {
    log.warn({ pid, dir }, 'stopping the embedded PostgreSQL a killed service left running');
    process.kill(pid, 'SIGINT');
    if (!(await gone(pid, 30_000))) {
      process.kill(pid, 'SIGQUIT');
      if (!(await gone(pid, 10_000)))
        throw new Error(`the embedded PostgreSQL (pid ${pid}) left running on ${dir} does not stop: stop it, then start again`);
    }
    return;
  }
  log.warn({ dir }, 'removing a stale postmaster.pid');
  fs.rmSync(file, { force: true });
}
