import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Instruction counts of a running process under valgrind's callgrind: repeatable for the same code and inputs
 * whatever else the machine is doing, where throughput on a shared two-core machine moved ±15 % between runs of
 * the same code. The process starts with instrumentation off (start-up and warm-up are only translated, ~5×
 * slower); `count` switches it on around one piece of work and reads the total from callgrind's dump.
 */
export interface Callgrind {
  /** The command prefix that starts a process under callgrind, instrumentation off. */
  prefix: string[];
  /** Instructions the process with that pid executed while `work` ran. */
  count(pid: number, work: () => Promise<void>): Promise<number>;
  cleanup(): void;
}

export function callgrind(): Callgrind {
  try {
    execFileSync('callgrind_control', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('BENCH_HTTP_MEASURE=instructions needs valgrind (callgrind_control) on the PATH');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-callgrind-'));
  // valgrind names its control pipes after $USER and $HOST (whatever they hold), so callgrind_control must run with
  // the same two as the process: both children are started with HOST=127.0.0.1 (the server listens there) and no USER.
  const vgdb = `--vgdb-prefix=${dir}/vgdb`;
  const env = { PATH: process.env.PATH ?? '', HOST: '127.0.0.1' };
  const control = (pid: number, ...args: string[]) =>
    execFileSync('callgrind_control', [vgdb, ...args, String(pid)], { stdio: 'ignore', env });
  return {
    // V8 writes the code it runs: all-non-file makes valgrind notice (it would run stale translations otherwise).
    prefix: ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', vgdb, `--callgrind-out-file=${dir}/cg.%p`],
    async count(pid, work) {
      control(pid, '--instr=on');
      control(pid, '--zero');
      await work();
      const before = new Set(fs.readdirSync(dir));
      control(pid, '--dump');
      // The process takes the command at its next poll and writes the file after callgrind_control returned.
      for (let waited = 0; waited < 60_000; waited += 200) {
        const dumped = fs.readdirSync(dir).filter((f) => f.startsWith(`cg.${pid}`) && !before.has(f));
        const summaries = dumped.map((f) => /^summary: (\d+)$/m.exec(fs.readFileSync(path.join(dir, f), 'utf8'))?.[1]);
        if (summaries.length && summaries.every((s) => s !== undefined)) {
          control(pid, '--instr=off');
          return Math.max(...summaries.map(Number));
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`callgrind wrote no dump for pid ${pid} within 60 s`);
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
