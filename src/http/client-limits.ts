import crypto from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody } from './errors.js';
import { clientKey } from '../services/common/client-address.js';

/**
 * Request-body bytes held in memory per client address, across that address's requests: one address cannot fill
 * the process with bodies it never finishes, however many connections it opens. A hold is taken as bytes arrive
 * (or for a declared length at once) and given back when the response ends.
 */
export class AddressBytes {
  private readonly held = new Map<string, number>();

  constructor(readonly maxPerAddress: number) {}

  /** A hold for one request; `add` returns false (and takes nothing) once the address would pass its budget. */
  hold(address: string): BytesHold {
    const key = clientKey(address);
    let mine = 0;
    return {
      add: (bytes: number) => {
        const total = (this.held.get(key) ?? 0) + bytes;
        if (total > this.maxPerAddress) return false;
        this.held.set(key, total);
        mine += bytes;
        return true;
      },
      release: () => {
        if (mine === 0) return;
        const left = (this.held.get(key) ?? 0) - mine;
        mine = 0;
        if (left > 0) this.held.set(key, left);
        else this.held.delete(key);
      },
    };
  }

  /** Bytes held for an address now (tests, diagnostics). */
  of(address: string): number {
    return this.held.get(clientKey(address)) ?? 0;
  }
}

export interface BytesHold {
  add(bytes: number): boolean;
  release(): void;
}

/** Sockets refused by the connection limit: a request parsed from one before it closed is dropped unanswered. */
export const refusedSockets = new WeakSet<Socket>();

/**
 * At most `max` open connections per client address (the socket's peer, counted as the rate limiter counts:
 * IPv6 by /56). A connection past that is answered 429 in the error wrapper at once and closed, before any of its
 * bytes are parsed; the address's other connections are untouched. Peers `trusted` says are proxies are not
 * counted (they carry many clients; their clients are limited by address further on).
 */
export function limitConnectionsPerAddress(server: Server, max: number, trusted: (address: string) => boolean): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  // Before node's own listener, so the refusal is written before the parser reads anything.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || trusted(address)) return;
    const key = clientKey(address);
    const count = (open.get(key) ?? 0) + 1;
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
    if (count <= max) return;
    const body = JSON.stringify(
      errorBody(429, crypto.randomUUID(), [
        { context: 'http', message: `Too many connections from this address (at most ${max} at once); close some and retry.` },
      ]),
    );
    refusedSockets.add(socket);
    socket.end(
      `HTTP/1.1 429 ${STATUS_CODES[429]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`,
    );
    // A peer that never reads its answer does not keep the socket.
    setTimeout(() => socket.destroy(), 1000).unref();
  });
}
