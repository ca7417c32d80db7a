import type { PGlite } from '@electric-sql/pglite';

/** A backend NotificationResponse (`A`): the notifying process id, the channel, the payload. */
const NOTIFICATION = 0x41;
/** A backend CommandComplete (`C`): the command's tag. */
const COMMAND_COMPLETE = 0x43;
/** The tags of the commands that end a session's LISTENs. */
const UNLISTENING = new Set(['UNLISTEN', 'DISCARD ALL']);

export interface SessionWatcher {
  /** A notification the session received. */
  notice(channel: string, payload: string): void;
  /** The session stopped listening on some or all channels (UNLISTEN, DISCARD ALL): notices may be missed from now. */
  unlistened(): void;
}

/**
 * Reads a backend's protocol output as it streams by and reports every notification in it, and every command that
 * ends its LISTENs. Messages are a type byte, a length (counting itself) and a body; only notifications' and
 * commands' bodies are kept, every other message (rows) is skipped by its length, so a large answer costs a few
 * comparisons per message. Output split anywhere between chunks is read
 * whole. Output that cannot be protocol (a negative length) ends the reading of that answer: it never throws into
 * the stream it watches.
 */
export class NotificationScanner {
  private readonly header = Buffer.alloc(5);
  private headerFill = 0;
  /** Bytes of the current message's body still to come (0: a header is next). */
  private remaining = 0;
  /** The current message's body, when it is a notification. */
  private body: Buffer | undefined;
  private bodyFill = 0;
  private type = 0;
  private broken = false;

  constructor(private readonly watcher: SessionWatcher) {}

  feed(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length && !this.broken) {
      if (this.remaining === 0) {
        const take = Math.min(5 - this.headerFill, chunk.length - i);
        this.header.set(chunk.subarray(i, i + take), this.headerFill);
        this.headerFill += take;
        i += take;
        if (this.headerFill < 5) return;
        this.headerFill = 0;
        const length = this.header.readInt32BE(1) - 4;
        if (length < 0) {
          this.broken = true;
          return;
        }
        this.remaining = length;
        const type = this.header[0];
        this.body = type === NOTIFICATION || type === COMMAND_COMPLETE ? Buffer.alloc(length) : undefined;
        this.type = type!;
        this.bodyFill = 0;
        continue;
      }
      const take = Math.min(this.remaining, chunk.length - i);
      if (this.body) this.body.set(chunk.subarray(i, i + take), this.bodyFill);
      this.bodyFill += take;
      this.remaining -= take;
      i += take;
      if (this.remaining === 0 && this.body) this.report(this.body);
    }
  }

  private report(body: Buffer): void {
    this.body = undefined;
    try {
      if (this.type === COMMAND_COMPLETE) {
        if (UNLISTENING.has(cstring(body, 0).text)) this.watcher.unlistened();
        return;
      }
      // Int32 process id, then the channel and the payload as NUL-terminated strings.
      const channel = cstring(body, 4);
      if (channel.end === body.length) return;
      this.watcher.notice(channel.text, cstring(body, channel.end + 1).text);
    } catch {
      // A watcher's failure is its own; the answer streams on.
    }
  }
}

/** The NUL-terminated string at `start` (to the end of the body when it has no NUL), and where it ends. */
function cstring(body: Buffer, start: number): { text: string; end: number } {
  const nul = body.indexOf(0, start);
  const end = nul < 0 ? body.length : nul;
  return { text: body.toString('utf8', start, end), end };
}

/**
 * The embedded PGlite as its socket server is to see it, with every answer it streams to a client read for
 * notifications first. PGlite has one session, shared by every connection to the socket: a notice that session
 * receives goes out in the answer to whichever connection's statement it followed, and nothing in this process
 * would see it. Read here, a commit's notices reach the watcher before the committing client reads its answer, and
 * so does a command that ended the session's LISTENs.
 * Everything else is PGlite's own (methods bound to it, so its private state stays reachable).
 */
export function withNoticesRead(db: PGlite, watcher: SessionWatcher): PGlite {
  const streamed: PGlite['execProtocolRawStream'] = (message, options) => {
    const scanner = new NotificationScanner(watcher);
    return db.execProtocolRawStream(message, {
      ...options,
      onRawData: (data) => {
        scanner.feed(data);
        options?.onRawData(data);
      },
    });
  };
  // Not what the socket server calls today, but the same answer whole: read the same way.
  const raw: PGlite['execProtocolRaw'] = async (message, options) => {
    const data = await db.execProtocolRaw(message, options);
    new NotificationScanner(watcher).feed(data);
    return data;
  };
  // Bound once per method: the socket server reaches for several on every statement.
  const bound = new Map<PropertyKey, unknown>([
    ['execProtocolRawStream', streamed],
    ['execProtocolRaw', raw],
  ]);
  return new Proxy(db, {
    get(target, prop) {
      const kept = bound.get(prop);
      if (kept !== undefined) return kept;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      bound.set(prop, fn);
      return fn;
    },
  });
}
