import { SingleBar } from 'cli-progress';

/**
 * Progress of a long command on stderr: on a terminal, one bar redrawn in place (percent, done of total, ETA,
 * rates, the file and phase); otherwise (a pipe, a log, CI) one plain line every few seconds, and one when a task
 * ends, so a log shows that work goes on without filling up. `json` makes those lines JSON objects. stdout stays for
 * the result.
 */
export interface ProgressOptions {
  json?: boolean;
  /** Where the bar or lines go; process.stderr. */
  stream?: NodeJS.WriteStream;
  /** Between two plain lines; 5 s. */
  intervalMs?: number;
}

/** What one update says: `done` of `total` in `unit`, counters with their rates, and where the task is. */
export interface ProgressUpdate {
  done: number;
  total: number;
  /** Counted things since the task started: rates are worked out from them (objects/s, edges/s). */
  counts?: Record<string, number>;
  /** The part of the task under way: a file, a rule. */
  detail?: string;
}

const MB = 1e6;
const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');

/** `12.3 of 27.1 MB`, or `3 of 16` for other units. */
function amount(done: number, total: number, unit: 'bytes' | 'steps' | 'objects'): string {
  if (unit === 'bytes') return `${(done / MB).toFixed(1)} of ${(total / MB).toFixed(1)} MB`;
  return `${fmtInt(done)} of ${fmtInt(total)}${unit === 'objects' ? ' objects' : ''}`;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/** One task (an ingest of a file, an analysis, a generation): start, update, end. */
export class Progress {
  private readonly stream: NodeJS.WriteStream;
  private readonly tty: boolean;
  private readonly intervalMs: number;
  private bar: SingleBar | undefined;
  private started = 0;
  private lastLine = 0;
  private last: ProgressUpdate = { done: 0, total: 0 };

  constructor(
    private readonly task: string,
    private readonly unit: 'bytes' | 'steps' | 'objects',
    private readonly opts: ProgressOptions = {},
  ) {
    this.stream = opts.stream ?? process.stderr;
    this.tty = !!this.stream.isTTY && !opts.json;
    this.intervalMs = opts.intervalMs ?? 5000;
  }

  start(total: number): void {
    this.started = this.lastLine = Date.now();
    this.last = { done: 0, total };
    if (!this.tty) return;
    this.bar = new SingleBar({
      stream: this.stream,
      format: `${this.task} {bar} {percentage}% | {amount} | ETA {eta_formatted}{rates}{detail}`,
      barsize: 24,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 40,
      fps: 8,
    });
    this.bar.start(Math.max(total, 1), 0, { amount: amount(0, total, this.unit), rates: '', detail: '' });
  }

  update(u: ProgressUpdate): void {
    this.last = u;
    if (this.bar) {
      this.bar.setTotal(Math.max(u.total, 1));
      this.bar.update(Math.min(u.done, u.total), {
        amount: amount(u.done, u.total, this.unit),
        rates: this.rates(u) && ` | ${this.rates(u)}`,
        detail: u.detail ? ` | ${u.detail}` : '',
      });
    } else if (Date.now() - this.lastLine >= this.intervalMs) {
      this.lastLine = Date.now();
      this.line(u, false);
    }
  }

  /** Ends the task; `summary` is printed as its last line (on a terminal the bar is replaced by it). */
  end(summary?: string): void {
    if (this.bar) {
      this.bar.stop();
      this.bar = undefined;
      if (summary) this.stream.write(`${this.task}: ${summary}\n`);
    } else this.line(this.last, true, summary);
  }

  private rates(u: ProgressUpdate): string {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    return Object.entries(u.counts ?? {})
      .map(([name, n]) => `${fmtInt(n)} ${name} (${fmtInt(n / seconds)}/s)`)
      .join(', ');
  }

  private line(u: ProgressUpdate, ended: boolean, summary?: string): void {
    const elapsed = (Date.now() - this.started) / 1000;
    const fraction = u.total > 0 ? Math.min(u.done / u.total, 1) : ended ? 1 : 0;
    const eta = fraction > 0 && !ended ? (elapsed * (1 - fraction)) / fraction : NaN;
    if (this.opts.json) {
      const p = {
        task: this.task,
        done: u.done,
        total: u.total,
        unit: this.unit,
        percent: Math.floor(fraction * 100),
        ...u.counts,
        detail: u.detail,
      };
      this.stream.write(
        JSON.stringify({
          progress: ended ? { ...p, ended, seconds: +elapsed.toFixed(1), summary } : { ...p, eta_seconds: Math.round(eta) },
        }) + '\n',
      );
      return;
    }
    const parts = ended
      ? [summary ?? 'done', `${duration(elapsed)}`]
      : [`${Math.floor(fraction * 100)}% (${amount(u.done, u.total, this.unit)})`, this.rates(u), `ETA ${duration(eta)}`, u.detail];
    this.stream.write(`${this.task}: ${parts.filter(Boolean).join(', ')}\n`);
  }
}
