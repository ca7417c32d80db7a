import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** Who the embedded PostgreSQL runs as: this process's user, or an unprivileged one when we are root. */
export interface RunAs {
  uid: number;
  gid: number;
  name: string;
  /** True when PostgreSQL runs as another user than this process (we are root: PostgreSQL refuses root). */
  switched: boolean;
}

/** The users PostgreSQL may run as when the service runs as root, in order of preference. */
const CANDIDATES = ['postgres', 'nobody'];

function passwdEntry(name: string): { uid: number; gid: number } | undefined {
  let text: string;
  try {
    text = fs.readFileSync('/etc/passwd', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined) return { uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

/**
 * This process's user; as root, GAS_POSTGRES_USER or else the system's `postgres` user, or `nobody`. Throws a
 * message naming what to do when none exists.
 */
export function chooseRunAs(env: NodeJS.ProcessEnv = process.env): RunAs {
  const uid = process.getuid?.() ?? 0;
  if (uid !== 0) return { uid, gid: process.getgid?.() ?? 0, name: String(uid), switched: false };
  const wanted = env.GAS_POSTGRES_USER ? [env.GAS_POSTGRES_USER] : CANDIDATES;
  for (const name of wanted) {
    const entry = passwdEntry(name);
    if (entry && entry.uid !== 0) return { ...entry, name, switched: true };
  }
  throw new Error(
    `the embedded PostgreSQL cannot run as root and no unprivileged user to run it as was found (${wanted.join(', ')}): ` +
      'create one (useradd --system postgres), set GAS_POSTGRES_USER to one, or run the service as a normal user',
  );
}

/** Whether `runAs` can execute `file` (every directory above it searchable for that user). */
export function canExecute(file: string, runAs: RunAs): boolean {
  if (!runAs.switched) return true;
  const r = spawnSync(file, ['--version'], { uid: runAs.uid, gid: runAs.gid, stdio: 'ignore', timeout: 10_000 });
  return !r.error && r.status === 0;
}
