import { seenByChild } from '../helpers/node-child';

/**
 * The embedded PGlite this process runs takes COPY in-process (DatabaseOptions.copyIn and copyOut), so ingest and
 * analysis write, and analysis and the path index read, through the same bulk paths as on a server. Run in a plain Node process on a PGlite of its own
 * (Jest's sandbox cannot load PGlite), in either test mode: the graph must be the one the parameterised path
 * writes, and the COPY must stay inside its transaction.
 */
jest.setTimeout(180_000);

let seen: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  seen = await seenByChild('test/helpers/embedded-copy-in-child.ts');
});

const same = { missing: [], extra: [] };

describe('COPY in-process on the embedded database', () => {
  it('is offered to transactions only when the Database is given it', () => {
    expect(seen.copyFrom).toEqual({ with: 'function', without: 'undefined' });
  });

  it("carries values COPY's text format escapes, or takes for its markers, as they were given", () => {
    const awkward = ['back\\slash\\', 'tab\there', 'line\nbreak\r\n', '\\N', 'quote " and \' ', 'Ünïcødé 漢字 🚀', 'x'.repeat(70_000)];
    expect(seen.awkward).toEqual({ description: awkward.join('|'), edge: true });
  });

  it('ingests the same graph as the parameterised statements', () => {
    expect(seen.ingest.errors).toEqual([]);
    expect(seen.ingest.edges).toBeGreaterThan(100);
    expect(seen.ingest.difference).toEqual(same);
  });

  it('copies out the rows a select gives, in a transaction of its own that ends even when the COPY fails', () => {
    expect(seen.copyOut).toEqual({
      copiedOut: { with: true, without: false },
      sameAsSelect: true,
      failed: { name: 'AppError', code: 'INTERNAL' }, // a statement of ours that cannot run: a 500, logged
      inTransaction: false,
      inTransactionInTx: true,
    });
  });

  it("gives the path index's edge scan the same edges by COPY as by pages", () => {
    expect(seen.edgeScan.edges).toBeGreaterThan(100);
    expect(seen.edgeScan.same).toBe(true);
  });

  it('ingests the same files again without a change (the direct COPY meets existing edges and merges instead)', () => {
    expect(seen.again).toEqual({ errors: [], difference: same });
  });

  it('analyses to the same graph, its edges read and its derived edges written by COPY', () => {
    expect(seen.analysis.edges).toBeGreaterThan(seen.ingest.edges);
    expect(seen.analysis.difference).toEqual(same);
  });

  it('keeps the COPY inside its transaction: rolled back with it, unseen by another connection until the commit, refused after it', () => {
    expect(seen.isolation).toEqual({
      copied: 2,
      rolledBack: 'a later step fails',
      afterRollback: 0,
      readerSaw: 1,
      late: { name: 'AppError', code: 'INTERNAL' },
      afterLate: 1,
    });
  });

  it("reports the database's errors as the service's own, and the transaction goes on after a savepoint", () => {
    expect(seen.errors).toEqual({
      duplicate: { name: 'AppError', code: 'CONFLICT' },
      malformed: { name: 'AppError', code: 'BAD_REQUEST' },
      committed: 2,
    });
  });
});
