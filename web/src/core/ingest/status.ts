import type { JobStatus } from '../../generated/graphql';

/** A job status as BloodHound's File Ingest page words it. */
export const JOB_STATUS: Record<JobStatus, string> = {
  INVALID: 'Invalid',
  READY: 'Ready',
  RUNNING: 'Running',
  COMPLETE: 'Complete',
  CANCELED: 'Canceled',
  TIMED_OUT: 'Timed out',
  FAILED: 'Failed',
  INGESTING: 'Ingesting',
  ANALYZING: 'Analyzing',
  PARTIALLY_COMPLETE: 'Partially complete',
};

const FINISHED: ReadonlySet<JobStatus> = new Set(['COMPLETE', 'CANCELED', 'TIMED_OUT', 'FAILED', 'PARTIALLY_COMPLETE', 'INVALID']);

/** Whether a job will change no more (the page stops asking often once every job has). */
export const isFinished = (s: JobStatus) => FINISHED.has(s);

/** A file's per-file result in a line: its top-level counts (objects, nodes, edges …). */
export function resultSummary(result: unknown): string {
  if (!result || typeof result !== 'object') return '';
  return Object.entries(result as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => `${(v as number).toLocaleString('en')} ${k}`)
    .join(', ');
}

/** A byte count for people (1.2 MB). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
