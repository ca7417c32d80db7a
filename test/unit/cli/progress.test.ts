import { PassThrough } from 'node:stream';
import { Progress } from '../../../src/cli/progress';
import { table } from '../../../src/cli/table';

/** A stream that records what is written, a terminal or not. */
function sink(tty: boolean) {
  const s = new PassThrough() as PassThrough & NodeJS.WriteStream;
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString()));
  Object.assign(s, { isTTY: tty, columns: 160, rows: 40, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { stream: s, text: () => text };
}

describe('progress on stderr', () => {
  it('not a terminal: plain lines with percent, amounts, rates, ETA and the part under way, then one when it ends', () => {
    const out = sink(false);
    const p = new Progress('ingest users.json', 'bytes', { stream: out.stream, intervalMs: 0 });
    p.start(50e6);
    p.update({ done: 12.5e6, total: 50e6, counts: { objects: 1200, edges: 30000 }, detail: 'reading' });
    p.end('2,600 objects, 78,000 edges');
    const lines = out.text().trim().split('\n');
    expect(lines[0]).toMatch(
      /^ingest users\.json: 25% \(12\.5 of 50\.0 MB\), 1,200 objects \([\d,]+\/s\), 30,000 edges \([\d,]+\/s\), ETA [\d.]+ s, reading$/,
    );
    expect(lines[1]).toMatch(/^ingest users\.json: 2,600 objects, 78,000 edges, [\d.]+ s$/);
    expect(lines).toHaveLength(2);
  });

  it('not a terminal: no more than a line per interval', () => {
    const out = sink(false);
    const p = new Progress('analysis', 'steps', { stream: out.stream, intervalMs: 60_000 });
    p.start(10);
    for (let i = 1; i < 10; i++) p.update({ done: i, total: 10, detail: `rule ${i}` });
    p.end('done');
    expect(out.text().trim().split('\n')).toEqual([expect.stringMatching(/^analysis: done, [\d.]+ s$/)]);
  });

  it('--json: the same as JSON objects', () => {
    const out = sink(true); // a terminal, but machines asked
    const p = new Progress('generate', 'objects', { stream: out.stream, intervalMs: 0, json: true });
    p.start(100);
    p.update({ done: 40, total: 100, detail: 'users.json' });
    p.end('12 files');
    const [first, last] = out
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(first).toEqual({
      progress: {
        task: 'generate',
        done: 40,
        total: 100,
        unit: 'objects',
        percent: 40,
        detail: 'users.json',
        eta_seconds: expect.any(Number),
      },
    });
    expect(last).toMatchObject({ progress: { task: 'generate', ended: true, summary: '12 files', percent: 40 } });
  });

  it('a terminal: one bar redrawn in place, replaced by the summary', () => {
    const out = sink(true);
    const p = new Progress('ingest users.json', 'bytes', { stream: out.stream });
    p.start(50e6);
    p.update({ done: 25e6, total: 50e6, counts: { objects: 1000, edges: 20000 }, detail: 'reading' });
    p.end('2,600 objects');
    const text = out.text();
    expect(text).toMatch(
      /ingest users\.json [█░=\-]+ 50% \| 25\.0 of 50\.0 MB \| ETA \S+ \| 1,000 objects \([\d,]+\/s\), 20,000 edges \([\d,]+\/s\) \| reading/,
    );
    // The bar cleared from its line (ESC[2K), the summary in its place.
    expect(text).toMatch(/\x1b\[2Kingest users\.json: 2,600 objects\n$/);
  });
});

describe('the report table', () => {
  it('pads columns, numbers to the right with separators', () => {
    expect(
      table(
        ['file', 'objects', 'seconds'],
        [
          ['users.json', 26000, '9.2'],
          ['groups.json', 523, '0.2'],
        ],
      ),
    ).toBe(
      ['file         objects  seconds', '-----------  -------  -------', 'users.json    26,000  9.2', 'groups.json      523  0.2', ''].join(
        '\n',
      ),
    );
  });
});
