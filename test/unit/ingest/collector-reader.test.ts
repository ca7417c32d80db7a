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

  /** Fed as the conversion worker feeds it: full() after each chunk, the spool drained at the end (data first). */
  async function batchSizes(doc: unknown, chunkBytes: number): Promise<number[]> {
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
    await reader.drain(async () => take());
    if (reader.pending()) take();
    reader.dispose();
    return sizes;
  }

  const full = FLUSH_OBJECTS * 4;
  const ramp = [full / 10, full / 5, (full * 2) / 5, (full * 4) / 5, full, full];
  const meta = { type: 'users', version: 6 };

  it('starts at a tenth of a batch and doubles up to the full size', async () => {
    const sizes = await batchSizes({ meta, data: users(90_000) }, 4096);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(90_000);
    // Chunks end mid-item, so a batch holds the rows of its last chunk too: up to a few dozen over its size.
    sizes.slice(0, ramp.length).forEach((n, i) => {
      expect(n).toBeGreaterThanOrEqual(ramp[i]!);
      expect(n).toBeLessThan(ramp[i]! + 100);
    });
  });

  it('ramps up the same way when "data" comes before "meta" (items drained from the spool one by one)', async () => {
    const sizes = await batchSizes({ data: users(90_000), meta }, 4096);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(90_000);
    expect(sizes).toEqual([...ramp, 90_000 - ramp.reduce((a, b) => a + b, 0)]);
  });

  it('keeps a file smaller than the first batch in one batch, in either key order', async () => {
    expect(await batchSizes({ meta, data: users(1_500) }, 4096)).toEqual([1_500]);
    expect(await batchSizes({ data: users(1_500), meta }, 4096)).toEqual([1_500]);
  });
});
