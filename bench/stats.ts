import fs from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

/** BENCH_SMOKE=1 (or `npm run bench -- --smoke`): every benchmark runs tiny, to prove it still works (CI). */
export const smoke = process.env.BENCH_SMOKE === '1' || process.argv.includes('--smoke');

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

/** p50/p99/mean of a list of milliseconds (nearest-rank percentiles). */
export function summarise(ms: number[]): Summary {
  if (!ms.length) return { n: 0, p50: 0, p99: 0, mean: 0 };
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  const round = (v: number) => Number(v.toFixed(v < 10 ? 3 : 1));
  return { n: ms.length, p50: round(at(0.5)), p99: round(at(0.99)), mean: round(sorted.reduce((a, b) => a + b, 0) / ms.length) };
}

/** The median of several trials' figures (two middle values averaged). */
export function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : Number(((v[mid - 1]! + v[mid]!) / 2).toFixed(2));
}

let gc: (() => void) | undefined;
/** A full collection, so memory figures are what is retained (works without --expose-gc). */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

/**
 * Memory after full collections, once freed array buffers are given back: their backing stores are released off
 * the main thread after the collection, so a reading taken at once still counted a build's discarded scan batches
 * (the paths bench reported 16 to 49 bytes per edge for the same index).
 */
export async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  let last = Infinity;
  for (let i = 0; i < 10; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = process.memoryUsage();
    if (now.arrayBuffers >= last) return now;
    last = now.arrayBuffers;
  }
  return process.memoryUsage();
}

/**
 * This process's peak resident set in MiB: VmHWM from /proc (Linux), else getrusage's maxRSS. Not maxRSS on Linux:
 * a child started by a large parent inherits the parent's resident size in it at the fork (a child that used 39 MB
 * reported 804 under a parent holding 800 MB), so the benches' children reported their parent's size instead of
 * their own.
 */
export function peakRssMb(): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Math.round(Number(kb) / 1024);
  } catch {
    // not Linux
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** CPU milliseconds this process has used (user + system), for differences around a measured section. */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * CPU milliseconds a local PostgreSQL backend has used, read from /proc (undefined when the server is elsewhere or
 * the platform has no /proc). On a machine whose cores are shared with other work, wall-clock ratios swing with the
 * load; CPU time spent is what a change to the work itself moves.
 */
export function backendCpuMs(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;
