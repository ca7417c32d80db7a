import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { TEST_SECRET_KEY } from './app';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs `gas` from the TypeScript sources in a child process, as a user would run the installed binary (killed after 3 min: a hang guard). */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src', 'cli.ts'), ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', GAS_SECRET_KEY: TEST_SECRET_KEY, ...env }, timeout: 180_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The admin password `serveEmbedded` starts with. */
export const EMBEDDED_ADMIN_PASSWORD = 'a-long-enough-admin-password-1!';

/** `gas serve` on the embedded default (no DATABASE_URL) in `dataDir`; resolves with its URL once it listens. */
export function serveEmbedded(
  dataDir: string,
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; output(): string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'info',
      GAS_SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      GAS_ADMIN_PASSWORD: EMBEDDED_ADMIN_PASSWORD,
      ...extraEnv,
    },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"url":"(http:\/\/[^"]+)".*graph analysis service listening/.exec(out);
      if (m) resolve({ child, url: m[1]!, output: () => out });
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`gas serve exited (${code}) before listening:\n${out}`)));
  });
}
