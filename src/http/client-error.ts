import crypto from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './errors.js';

/**
 * Requests Node's HTTP parser refuses before express sees them (headers or URL too large, malformed request
 * line) are answered in the error wrapper too, instead of Node's bare status line.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
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
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
