/**
 * A conversion worker: reads collector files (SharpHound, AzureHound) sent to it in chunks, converts, merges and
 * encodes their rows into prepared batches, and sends those to the writer's thread, which only writes. Parsing and
 * converting then never hold up the thread that answers the database (see docs/decisions.md, "Ingest: the writer").
 */
import { parentPort } from 'node:worker_threads';
import { prepareBatch, transferList } from '../graph/prepared.js';
import { CollectorReader } from './collector-reader.js';
import { Inbox, type FromWorker, type ToWorker } from './convert-protocol.js';
import { IngestError } from './ingest-types.js';

const port = parentPort!;
/** Input handed to the reader at a time (a message may hold a MiB: see ingest-path.ts). */
const PUSH_BYTES = 64 * 1024;
const inbox = new Inbox<ToWorker>();
/** Batches sent and not yet taken by the writer; the worker waits while one is. */
let unclaimed = 0;
let claimed: (() => void) | undefined;

const send = (m: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

/** The writer gave up on the file being read: the worker stops at its next step. */
let aborted = false;

port.on('message', (m: ToWorker) => {
  if (m.op === 'abort') {
    aborted = true;
    inbox.interrupt(m);
  } else if (m.op === 'credit') unclaimed--;
  else return inbox.push(m);
  claimed?.();
  claimed = undefined;
});

const checkAborted = () => {
  if (aborted) throw new Error('the writer gave up on this file');
};

async function readFile(start: Extract<ToWorker, { op: 'start' }>): Promise<void> {
  // "graph" (OpenGraph) is left to the writer's thread: it chooses this worker only for files that start as
  // collector files, and ignores an OpenGraph tag after them as any other unknown key.
  const reader = new CollectorReader(start.file, start.limits, start.now, start.metaHint);
  const flush = async () => {
    checkAborted();
    if (!reader.pending()) return;
    const rows = reader.takeRows();
    const batch = await prepareBatch(rows.nodes, rows.edges);
    while (unclaimed >= 1 && !aborted) await new Promise<void>((resolve) => (claimed = resolve));
    checkAborted();
    unclaimed++;
    send({ op: 'batch', batch, deletes: rows.deletes, objects: reader.result.objects }, transferList(batch));
  };
  // The answer goes out only once the spool is removed: the writer may end this worker as soon as it has it.
  let answer: FromWorker;
  try {
    for (;;) {
      const m = await inbox.next();
      checkAborted();
      if (m.op === 'end') break;
      if (m.op !== 'chunk') throw new Error(`unexpected "${m.op}" while reading a file`);
      // In slices, checking for a full batch after each: batches are cut where they fill up (the first ones small,
      // so the database starts early) however large the messages are.
      const input = Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength);
      send({ op: 'consumed', bytes: input.byteLength });
      for (let at = 0; at < input.byteLength; at += PUSH_BYTES) {
        reader.push(input.subarray(at, at + PUSH_BYTES));
        if (reader.spooled) await reader.drain(flush);
        if (reader.full()) await flush();
      }
    }
    reader.splitter.end();
    reader.checkComplete();
    await reader.drain(flush);
    await reader.release(flush);
    await flush();
    answer = { op: 'done', result: reader.result };
  } catch (err) {
    const failure = reader.failure(err);
    answer = { op: 'failed', reason: failure instanceof IngestError ? failure.reason : String(failure) };
  }
  reader.dispose();
  send(answer);
}

async function serve(): Promise<void> {
  for (;;) {
    const m = await inbox.next();
    if (m.op !== 'start') continue; // the rest of a file given up on (its worker is ended anyway)
    unclaimed = 0;
    aborted = false;
    await readFile(m);
  }
}

void serve();
