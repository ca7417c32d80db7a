import net from 'node:net';

/** How one slow client behaves on its connection. */
export type SlowKind = 'declared-9.5MiB' | 'slow-headers' | 'slow-body' | 'idle';

export const SLOW_KINDS: SlowKind[] = ['declared-9.5MiB', 'slow-headers', 'slow-body', 'idle'];

/** What the slow clients saw: answers by status, connections opened and how long they lasted. */
export interface SlowStats {
  connections: number;
  byStatus: Record<string, number>;
  /** Connections the server closed without an answer (after one, the socket closes too). */
  closedUnanswered: number;
  longestMs: number;
}

const MiB = 1024 * 1024;

/**
 * One slow client slot: opens a connection from `localAddress`, behaves as `kind` (sending a byte, a header line or
 * a kilobyte a second, or nothing), waits for the server to answer or close, and opens the next one 100 ms later,
 * until `until`. As an attacker would, it never finishes a request on its own.
 */
export async function slowSlot(port: number, kind: SlowKind, localAddress: string, until: number, stats: SlowStats): Promise<void> {
  while (Date.now() < until) {
    await new Promise<void>((resolve) => {
      const opened = Date.now();
      stats.connections++;
      const socket = net.connect({ port, host: '127.0.0.1', localAddress });
      let answer = '';
      let tick: NodeJS.Timeout | undefined;
      const end = setTimeout(() => socket.destroy(), Math.max(0, until - Date.now()));
      socket.on('connect', () => {
        if (kind === 'declared-9.5MiB') {
          socket.write(
            `POST /graphql HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: ${Math.round(9.5 * MiB)}\r\n\r\n{`,
          );
          tick = setInterval(() => socket.write(' '), 1000);
        } else if (kind === 'slow-headers') {
          socket.write('POST /graphql HTTP/1.1\r\nHost: bench\r\n');
          let n = 0;
          tick = setInterval(() => socket.write(`X-Slow-${n++}: x\r\n`), 1000);
        } else if (kind === 'slow-body') {
          socket.write(
            `POST /api/v2/login HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024}\r\n\r\n{"a":"`,
          );
          tick = setInterval(() => socket.write('x'.repeat(1000)), 1000);
        }
      });
      socket.on('data', (d) => (answer += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(tick);
        clearTimeout(end);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
        if (status) stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
        else if (Date.now() < until) stats.closedUnanswered++;
        stats.longestMs = Math.max(stats.longestMs, Date.now() - opened);
        setTimeout(resolve, 100);
      });
    });
  }
}

/** Latencies of GET /health asked one after another from 127.0.0.1 (a monitor), every `everyMs`, until stopped. */
export function healthProbe(url: string, everyMs = 50): { stop(): Promise<number[]>; failures: () => number } {
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status !== 200) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    failures: () => failures,
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

/** Percentiles of latencies, in milliseconds, rounded. */
export function percentiles(values: number[]): { n: number; p50: number; p99: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0);
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: Math.round(s[s.length - 1] ?? 0) };
}
