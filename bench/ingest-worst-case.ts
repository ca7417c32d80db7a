import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { benchDatabase, ratio } from './harness';

interface ChildResult {
  ms: number;
  objects: number;
  edges: number;
  refused: string[];
  max_rss_mb: number;
}

function child(url: string, file: string): Promise<ChildResult> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'ingest-worst-child.ts'), url, file],
      { maxBuffer: 1 << 20 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    ),
  );
}

const D = 'S-1-5-21-555-666-777';
const user = (i: number, extra = '') =>
  `{"ObjectIdentifier":"${D}-${i}","Properties":{"name":"U${i}@BENCH.LOCAL","domain":"BENCH.LOCAL"${extra}},"Aces":[]}`;

/** A stream of `head`, `count` chunks from `chunk(i)`, then `tail`, never held whole. */
function generated(head: string, count: number, chunk: (i: number) => string, tail: string): Readable {
  let i = -1;
  return new Readable({
    read() {
      if (i === -1) this.push(head);
      else if (i < count) this.push(chunk(i));
      else if (i === count) this.push(tail);
      else this.push(null);
      i++;
    },
  });
}

async function zipOf(file: string, name: string, stream: Readable): Promise<void> {
  const z = new yazl.ZipFile();
  z.addReadStream(stream, name);
  z.end();
  await new Promise<void>((resolve, reject) => z.outputStream.pipe(fs.createWriteStream(file)).on('close', resolve).on('error', reject));
}

/**
 * The worst inputs tried against the ingest bounds (docs/benchmarks.md), each in its own process, reporting peak
 * RSS, against the peak RSS of an ordinary small file ingested the same way:
 *   max-item       a data-first users file whose one object is just under the 32 MiB item cap (ACEs from
 *                  BENCH_WORST_ACES distinct principals, default 250,000): accepted, the heaviest object allowed
 *   item-bomb.zip  a zip whose single object inflates to 200 MiB: refused at the item cap
 *   string-bomb.zip a zip holding a 250 MiB string property (the 255 KB zip): refused at the string cap
 *   deep.json      10 MB of "[": refused at the nesting cap
 *   spooled        BENCH_WORST_SPOOLED data-first users (default 20,000) parked on disk until "meta": accepted
 */
export async function ingestWorstCaseBench(): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-worst-'));
  const store = await benchDatabase();
  try {
    const files: Record<string, string> = {};
    const small = path.join(dir, 'small.json');
    fs.writeFileSync(small, `{"data":[${Array.from({ length: 100 }, (_, i) => user(i)).join(',')}],"meta":{"type":"users","version":6}}`);

    const aces = Number(process.env.BENCH_WORST_ACES ?? 250_000);
    files['max-item'] = path.join(dir, 'max-item.json');
    await new Promise<void>((resolve, reject) =>
      generated(
        `{"data":[{"ObjectIdentifier":"${D}-1","Properties":{"name":"HUB@BENCH.LOCAL"},"Aces":[`,
        aces,
        (i) => `${i ? ',' : ''}{"PrincipalSID":"${D}-${100000 + i}","PrincipalType":"User","RightName":"GenericAll","IsInherited":false}`,
        `]}],"meta":{"type":"users","version":6}}`,
      )
        .pipe(fs.createWriteStream(files['max-item']))
        .on('close', resolve)
        .on('error', reject),
    );

    files['item-bomb.zip'] = path.join(dir, 'item-bomb.zip');
    const mib = 'x'.repeat(1000);
    await zipOf(
      files['item-bomb.zip'],
      'users.json',
      generated(
        `{"meta":{"type":"users"},"data":[{"ObjectIdentifier":"${D}-2","Properties":{"tags":[`,
        200 * 1024,
        (i) => `${i ? ',' : ''}"${mib}"`,
        ']}}]}',
      ),
    );

    files['string-bomb.zip'] = path.join(dir, 'string-bomb.zip');
    const block = 'A'.repeat(1 << 20);
    await zipOf(
      files['string-bomb.zip'],
      'users.json',
      generated(`{"data":[{"ObjectIdentifier":"${D}-3","Properties":{"description":"`, 250, () => block, '"}}],"meta":{"type":"users"}}'),
    );

    files['deep.json'] = path.join(dir, 'deep.json');
    fs.writeFileSync(files['deep.json'], `{"meta":{"type":"users"},"data":[${'['.repeat(10_000_000)}`);

    const spooled = Number(process.env.BENCH_WORST_SPOOLED ?? 20_000);
    files.spooled = path.join(dir, 'spooled.json');
    await new Promise<void>((resolve, reject) =>
      generated('{"data":[', spooled, (i) => `${i ? ',' : ''}${user(10_000 + i)}`, '],"meta":{"type":"users","version":6}}')
        .pipe(fs.createWriteStream(files.spooled!))
        .on('close', resolve)
        .on('error', reject),
    );

    const baseline = await child(store.url, small);
    const cases: Record<string, unknown> = {};
    let worst = 0;
    for (const [name, file] of Object.entries(files)) {
      const r = await child(store.url, file);
      worst = Math.max(worst, r.max_rss_mb);
      cases[name] = { file_mb: +(fs.statSync(file).size / 1e6).toFixed(2), ...r };
    }
    return {
      storage: store.kind,
      baseline_small_file: baseline,
      cases,
      worst_peak_rss_mb: worst,
      ratio_worst_peak_rss: ratio(worst, baseline.max_rss_mb),
    };
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
