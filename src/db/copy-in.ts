/**
 * `COPY … FROM STDIN` whose data goes on the wire right behind the statement, in the same write, instead of after
 * the server's CopyInResponse. pg-copy-streams waits for that response before it sends a byte, so every COPY cost
 * a round trip through this process's event loop with the server idle meanwhile (an ingest sends ~120 of them
 * while its thread is busy encoding the next batch). The protocol allows it: a server that fails the statement
 * before it reads the data (or part-way through it) skips CopyData and CopyDone messages until the next command,
 * which is also what lets a query string hold other statements around the COPY (`savepoint …; copy …; release …`):
 * they run in order, and an error ends the string with the COPY's error.
 *
 * Used through pg's "submittable" interface (client.query(new CopyIn(…))): pg calls submit() when the connection
 * is free and then hands every protocol message of the answer to the handle* methods.
 */

/** pg's connection, as far as this needs it. */
interface Wire {
  query(text: string): void;
  stream: { write(data: Buffer): boolean };
}

const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

export class CopyIn {
  /** Rows the COPY wrote, from its CommandComplete (`COPY n`). */
  private rows = 0;
  private failure: Error | undefined;
  private settled = false;
  private resolve!: (rows: number) => void;
  private reject!: (err: Error) => void;
  readonly done: Promise<number>;

  constructor(
    private readonly text: string,
    private readonly chunks: readonly (string | Buffer)[],
  ) {
    this.done = new Promise<number>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: Wire): void {
    connection.query(this.text);
    for (const rows of this.chunks) {
      // A message's length counts bytes: text is encoded first.
      const chunk = typeof rows === 'string' ? Buffer.from(rows) : rows;
      if (!chunk.length) continue; // an empty CopyData is legal but says nothing
      const head = Buffer.allocUnsafe(5);
      head[0] = 0x64; // CopyData
      head.writeUInt32BE(chunk.length + 4, 1);
      connection.stream.write(head);
      connection.stream.write(chunk);
    }
    connection.stream.write(COPY_DONE);
  }

  /** The data is on its way already. */
  handleCopyInResponse(): void {}

  handleCommandComplete(msg: { text?: string }): void {
    const m = /^COPY (\d+)/.exec(msg.text ?? '');
    if (m) this.rows = Number(m[1]);
  }

  /**
   * The server's error (a ReadyForQuery follows) or a lost connection (none does): either way the COPY has failed,
   * and the caller learns it now; pg submits nothing else on this connection before the ReadyForQuery.
   */
  handleError(err: Error): void {
    this.failure ??= err;
    this.settle();
  }

  handleReadyForQuery(): void {
    this.settle();
  }

  // A COPY answers with none of these; pg calls them only for statements that return rows.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.failure) this.reject(this.failure);
    else this.resolve(this.rows);
  }
}
