import net from 'node:net';

/** A raw HTTP connection: what was written, and everything the server answered until it closed (or `waitMs`). */
export interface RawExchange {
  /** The answer's status, 0 when none came. */
  status: number;
  text: string;
  /** Whether the server closed the connection, and after how many milliseconds since it opened. */
  closed: boolean;
  closedAfterMs: number;
  /** Milliseconds from opening to the first byte of the answer (-1: none). */
  answeredAfterMs: number;
}

/**
 * Opens a TCP connection to the server (from `localAddress`, any 127.0.0.0/8 address: a separate client address on
 * loopback), writes `head`, then each of `then` after its delay, and reads until the server closes or `waitMs`
 * passes. For requests no HTTP client sends: headers never finished, bodies declared and never sent.
 */
export function rawExchange(
  port: number,
  head: string | Buffer,
  opts: { localAddress?: string; waitMs?: number; then?: { afterMs: number; data: string | Buffer }[] } = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: opts.localAddress });
    let text = '';
    let answeredAfterMs = -1;
    const timers: NodeJS.Timeout[] = [];
    const done = (closed: boolean) => {
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text, closed, closedAfterMs: Date.now() - started, answeredAfterMs });
    };
    socket.on('connect', () => {
      socket.write(head);
      for (const step of opts.then ?? []) timers.push(setTimeout(() => socket.writable && socket.write(step.data), step.afterMs));
    });
    socket.on('data', (d) => {
      if (answeredAfterMs < 0) answeredAfterMs = Date.now() - started;
      text += d.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => done(true));
    timers.push(setTimeout(() => done(false), opts.waitMs ?? 5000));
  });
}

/** Opens a connection and keeps it open, sending nothing; resolves once connected. */
export function idleConnection(port: number, localAddress?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** The JSON body of a raw answer (after the blank line), or undefined. */
export function rawJson(text: string): Record<string, unknown> | undefined {
  const at = text.indexOf('\r\n\r\n');
  if (at < 0) return undefined;
  try {
    return JSON.parse(text.slice(at + 4)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
