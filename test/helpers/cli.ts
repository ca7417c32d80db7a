import { execFile } from 'node:child_process';
import path from 'node:path';
import { TEST_SECRET_KEY } from './app';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs `gas` from the TypeScript sources in a child process, as a user would run the installed binary. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src', 'cli.ts'), ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', GAS_SECRET_KEY: TEST_SECRET_KEY, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
