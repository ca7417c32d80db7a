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

let gc: (() => void) | undefined;
/** A full collection, so memory figures are what is retained (works without --expose-gc). */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}
