import { CollectorReader, FLUSH_OBJECTS } from '../../../src/ingest/collector-reader';
import { DEFAULT_LIMITS } from '../../../src/ingest/ingest-types';

/**
 * A file's first batches are small and double up to the full size, so the database (whose transaction for the file
 * has begun) gets work soon instead of waiting for a full batch to be read. Batches are taken as the conversion
 * worker takes them: whenever the reader says it is full after a chunk.
 */
describe('the batches a collector file is cut into', () => {
  const users = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ObjectIdentifier: `S-1-5-21-9-9-9-${1000 + i}`, Properties: { name: `U${i}` }, Aces: [] }));

  function batchSizes(doc: unknown, chunkBytes: number): number[] {
    const reader = new CollectorReader('users.json', DEFAULT_LIMITS, '2026-11-28T00:00:00Z');
    const text = Buffer.from(JSON.stringify(doc));
    const sizes: number[] = [];
    const take = () => {
      const rows = reader.takeRows();
      sizes.push(rows.nodes.length + rows.edges.length + rows.deletes.length);
    };
    for (let at = 0; at < text.length; at += chunkBytes) {
      reader.push(text.subarray(at, at + chunkBytes));
      if (reader.full()) take();
    }
    reader.splitter.end();
    reader.checkComplete();
    if (reader.pending()) take();
    reader.dispose();
    return sizes;
  }

  it('starts at a tenth of a batch and doubles up to the full size', () => {
    const full = FLUSH_OBJECTS * 4;
    const sizes = batchSizes({ meta: { type: 'users', version: 6 }, data: users(90_000) }, 4096);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(90_000);
    // Chunks end mid-item, so a batch holds the rows of its last chunk too: up to a few dozen over its size.
    const expected = [full / 10, full / 5, (full * 2) / 5, (full * 4) / 5, full, full];
    sizes.slice(0, expected.length).forEach((n, i) => {
      expect(n).toBeGreaterThanOrEqual(expected[i]!);
      expect(n).toBeLessThan(expected[i]! + 100);
    });
  });

  it('keeps a file smaller than the first batch in one batch', () => {
    expect(batchSizes({ meta: { type: 'users', version: 6 }, data: users(1_500) }, 4096)).toEqual([1_500]);
  });
});
