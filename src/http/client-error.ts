import crypto from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './errors.js';

const answering = new WeakSet<Server>();

/**
 * Requests Node's HTTP parser refuses before express sees them (headers or URL too large, malformed request
 * line, headers or a whole request that did not arrive in time) are answered in the error wrapper too, instead of
 * Node's bare status line, and the connection is closed.
 */
export function answerClientErrors(server: Server): void {
  // Once per server: createHttpServer attaches it, and callers that attach it again must not answer twice.
  if (answering.has(server)) return;
  answering.add(server);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // An answer already under way on this socket must not be corrupted by a second one: the socket just ends.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431
        ? 'The request line and headers are too large.'
        : status === 408
          ? 'The request took too long to arrive.'
          : 'The request is not valid HTTP.';
    const body = JSON.stringify(errorBody(status, crypto.randomUUID(), [{ context: 'http', message }]));
    // A slow client (408) may not read its answer either: it does not keep the socket.
    setTimeout(() => socket.destroy(), 1000).unref();
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
