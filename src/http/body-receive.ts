import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { AppError, badRequest, requestTimeout, tooLarge } from '../errors.js';
import { MSG } from '../messages.js';
import type { AddressBytes } from './client-limits.js';
import { hasBody } from './errors.js';

export interface ReceiveLimits {
  /** Largest body of a caller the headers identified, or who signs the body. */
  maxBytes: number;
  /** Largest body of a caller without credentials (and of a body a route never reads). */
  anonymousMaxBytes: number;
  /** Bytes of a signed body kept in memory until its signature is checked; past them it waits on disk. */
  unverifiedMemoryBytes: number;
  /** Where those bodies wait (DATA_DIR/uploads/incoming; leftovers are removed at start-up). */
  spillDir: string;
  /** The whole body must have arrived within this long of the request: else 408 and the connection closed. */
  timeoutMs: number;
  /** Bytes in memory per client address, across its requests. */
  inFlight: AddressBytes;
}

const EMPTY = Buffer.alloc(0);

/** Refusals that leave the rest of the body unread end the connection once answered (writeError). */
const refusal = (max: number, what?: string) =>
  tooLarge('middleware', what ? `${MSG.bodyTooLarge} (over ${what})` : `${MSG.bodyTooLarge} (limit ${max} bytes)`);

const tooMuchInFlight = (max: number) =>
  new AppError(
    'RATE_LIMITED',
    'middleware',
    `Too many request bytes in flight from this address (at most ${max} at once); retry when earlier requests have finished.`,
    { headers: { 'Retry-After': '1' } },
  );

/**
 * Ends a request that is too slow: the 408 goes out with `Connection: close` and the socket is closed after it,
 * whatever the client still sends (or does not read).
 */
export function closeAfterAnswer(req: Request, res: Response): void {
  const socket = req.socket;
  // Answered already (a deadline came first): the connection just ends once that answer is out.
  if (res.headersSent) {
    if (res.writableFinished) socket.destroy();
    else res.once('close', () => socket.destroy());
    return;
  }
  res.setHeader('Connection', 'close');
  res.once('finish', () => {
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  });
  res.once('close', () => socket.destroy());
}

/**
 * Receives a request's body bytes, bounded by who is calling. The caller is known from the headers
 * (src/http/authenticate.ts) before the first byte is read:
 *   - a session (JWT, cookie): up to `maxBytes` (`routeMax` for a route with a larger allowance);
 *   - a signed request: up to `maxBytes`, each chunk fed to the signature as it arrives; only the first
 *     `unverifiedMemoryBytes` stay in memory, the rest waits on disk until the signature matched (then it is read
 *     back; a mismatch is a 401 and the file is removed). The caller is then known: `req.session`.
 *   - no credentials, or a route that never reads its body (`unread`): up to `anonymousMaxBytes`.
 * A declared length over the bound is refused before reading; the bytes an address holds in memory across its
 * requests are bounded (429); a body not complete within `timeoutMs` is a 408 and the connection is closed.
 */
export async function receiveBody(
  req: Request,
  res: Response,
  limits: ReceiveLimits,
  opts: { routeMax?: number; unread?: boolean } = {},
): Promise<Buffer> {
  const credential = req.bodyCredential;
  const identified = !!req.session || !!credential;
  const max = (identified && !opts.unread) || credential ? (opts.routeMax ?? limits.maxBytes) : limits.anonymousMaxBytes;
  const memoryCap = credential ? limits.unverifiedMemoryBytes : max;
  if (!hasBody(req)) {
    await finishCredential(req);
    return EMPTY;
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > max) throw refusal(max);
  const hold = limits.inFlight.hold(req.ip ?? req.socket.remoteAddress ?? 'unknown');
  res.once('close', hold.release);
  // A declared length is held at once (up to what stays in memory): twenty slow bodies of 9 MiB from one address
  // are refused at their headers, not once they have arrived.
  if (Number.isFinite(declared) && declared > 0 && !hold.add(Math.min(declared, memoryCap)))
    throw tooMuchInFlight(limits.inFlight.maxPerAddress);
  const held = Number.isFinite(declared) ? Math.min(declared, memoryCap) : 0;

  const take = (bytes: number) => {
    if (!hold.add(bytes)) throw tooMuchInFlight(limits.inFlight.maxPerAddress);
  };
  const sink = new BodySink(memoryCap, credential ? path.join(limits.spillDir, `body-${crypto.randomUUID()}`) : undefined, take, held);
  try {
    await readChunks(req, res, { max, timeoutMs: limits.timeoutMs, onChunk: (chunk) => sink.write(chunk) });
    await finishCredential(req);
    // Authenticated now: what waited on disk may come into memory (counted for the address like any body).
    const data = await sink.bytes();
    take(Math.max(0, data.length - Math.max(held, sink.inMemory)));
    return data;
  } finally {
    sink.dispose();
  }
}

/** A signed request with nothing (more) to read: its signature decides now. */
async function finishCredential(req: Request): Promise<void> {
  const credential = req.bodyCredential;
  if (!credential) return;
  req.bodyCredential = undefined;
  req.session = await credential.finish();
}

export interface ChunkReading {
  /** More bytes than this is a 413. */
  max: number;
  /** The time limit: for the whole body, or (`idle`) for each pause between chunks. */
  timeoutMs: number;
  idle?: boolean;
  /** Takes each chunk; a promise makes the reader wait for it (backpressure); a throw refuses the body. */
  onChunk(chunk: Buffer): Promise<void> | undefined;
}

/**
 * Reads a request's body chunk by chunk, feeding a signed request's digest; rejects with the 4xx the client has
 * earned: 413 past `max`, 408 past the time limit (and the connection closes after the answer), 400 when the body
 * ends early or cannot be read.
 */
export function readChunks(req: Request, res: Response, opts: ChunkReading): Promise<void> {
  const credential = req.bodyCredential;
  return new Promise<void>((resolve, reject) => {
    let size = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      res.off('close', onAnswered);
      if (err) reject(err);
      else resolve();
    };
    // The request was answered (its deadline) or its connection went while the body was still arriving.
    const onAnswered = () => settle(badRequest('middleware', 'The request ended before its body was complete.'));
    res.once('close', onAnswered);
    const expire = () => {
      closeAfterAnswer(req, res);
      req.pause();
      const seconds = Math.round(opts.timeoutMs / 1000);
      settle(
        requestTimeout(
          'middleware',
          opts.idle
            ? `The request body stalled: nothing arrived for ${seconds} seconds.`
            : `The request body did not arrive within ${seconds} seconds.`,
        ),
      );
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(expire, opts.timeoutMs);
      timer.unref();
    };
    arm();
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > opts.max) return settle(refusal(opts.max));
      if (opts.idle) arm();
      try {
        credential?.update(chunk);
        const wait = opts.onChunk(chunk);
        if (!wait) return;
        req.pause();
        wait.then(
          () => !settled && req.resume(),
          (err: unknown) => settle(err),
        );
      } catch (err) {
        settle(err);
      }
    };
    const onEnd = () => settle();
    const onError = (err: Error) => settle(badRequest('middleware', `The request body could not be read: ${err.message}.`));
    const onClose = () => {
      if (!req.complete) settle(badRequest('middleware', 'The request body ended before it was complete.'));
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * Where received bytes go: memory up to `memoryCap` (each byte past the `held` ones taken from the address's
 * budget, which throws when it is spent), then, for a body whose signature is not checked yet, a file.
 */
class BodySink {
  private readonly chunks: Buffer[] = [];
  inMemory = 0;
  private file: fs.WriteStream | undefined;
  private fileError: Error | undefined;

  constructor(
    private readonly memoryCap: number,
    private readonly spillPath: string | undefined,
    private readonly take: (bytes: number) => void,
    private readonly held: number,
  ) {}

  /** Takes a chunk; a promise when the file asks the reader to wait (backpressure). */
  write(chunk: Buffer): Promise<void> | undefined {
    if (this.fileError) throw this.fileError;
    if (!this.file && this.inMemory + chunk.length <= this.memoryCap) {
      const past = this.inMemory + chunk.length - Math.max(this.held, this.inMemory);
      if (past > 0) this.take(past);
      this.chunks.push(chunk);
      this.inMemory += chunk.length;
      return undefined;
    }
    if (!this.spillPath) throw refusal(this.memoryCap);
    if (!this.file) {
      fs.mkdirSync(path.dirname(this.spillPath), { recursive: true, mode: 0o700 });
      this.file = fs.createWriteStream(this.spillPath, { mode: 0o600 });
      this.file.on('error', (err) => (this.fileError = err));
    }
    if (this.file.write(chunk)) return undefined;
    return new Promise((resolve) => this.file!.once('drain', resolve));
  }

  /** The whole body: what is in memory, followed by what waited on disk. */
  async bytes(): Promise<Buffer> {
    const inMemory = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    if (!this.file) return inMemory;
    const file = this.file;
    await new Promise<void>((resolve, reject) => {
      if (this.fileError) return reject(this.fileError);
      file.once('error', reject);
      file.end(() => resolve());
    });
    return Buffer.concat([inMemory, await fs.promises.readFile(this.spillPath!)]);
  }

  dispose(): void {
    if (!this.file) return;
    this.file.destroy();
    fs.rm(this.spillPath!, { force: true }, () => undefined);
  }
}
