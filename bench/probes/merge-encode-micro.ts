import path from 'node:path';
import type { EdgeInput } from '../../src/graph/model';

/**
 * Two hot loops of an ingest's client side, alone, in the checkout given (this one by default): the edge merge
 * (`EdgeMerge`, 1.84 million edges in 92 batches of 20,000, ~25 per object as ACEs come) and the writer's COPY row
 * encoding (`EdgeCopyRows`, as many rows; absent before 9d9b606). Prints the CPU of each of five repetitions.
 * Run two checkouts at once on a core each to compare them on the same machine:
 *
 *   taskset -c 0 node --import tsx bench/probes/merge-encode-micro.ts & \
 *     taskset -c 1 node --import tsx bench/probes/merge-encode-micro.ts /tmp/wt-before; wait
 */
const root = path.resolve(process.argv[2] ?? path.join(__dirname, '../..'));
const { EdgeMerge } = require(path.join(root, 'src/graph/pg/merge.ts')) as typeof import('../../src/graph/pg/merge');
let EdgeCopyRows: typeof import('../../src/graph/pg/copy-rows').EdgeCopyRows | undefined;
try {
  ({ EdgeCopyRows } = require(path.join(root, 'src/graph/pg/copy-rows.ts')) as typeof import('../../src/graph/pg/copy-rows'));
} catch {
  EdgeCopyRows = undefined;
}

const SID = 'S-1-5-21-3623811015-3361044348-30300820-';

/** One batch: the object's SID shared by its ~25 edges, the principals fresh strings as JSON.parse makes them. */
function batch(n: number, seed: number): EdgeInput[] {
  const out: EdgeInput[] = [];
  const props = Object.freeze({ isacl: true, isinherited: false });
  for (let i = 0; out.length < n; i++) {
    const sid = `${SID}${100000 + seed * 100000 + i}`;
    const ends = JSON.parse(JSON.stringify(Array.from({ length: 25 }, (_, k) => `${SID}${(i * 7 + k * 131) % 5000}`))) as string[];
    for (let k = 0; k < 25; k++)
      out.push({
        start: sid,
        end: ends[k]!,
        kind: k % 3 ? 'GenericAll' : 'WriteDacl',
        startKind: 'Group',
        endKind: 'User',
        properties: props,
      });
  }
  return out;
}

const cpuMs = (f: () => void) => {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return Math.round((u.user + u.system) / 1000);
};

const batches = Array.from({ length: 92 }, (_, s) => batch(20_000, s));
const kinds = Array.from({ length: 40 }, (_, i) => Buffer.from(`\t${i + 1}\t`));
const props = Array.from({ length: 8 }, (_, i) =>
  Buffer.from(JSON.stringify({ isacl: true, isinherited: i % 2 === 0, inheritancehash: 'abcdef0123456789abcdef0123456789abcdef01' })),
);
const merge: number[] = [];
const encode: number[] = [];
for (let r = 0; r < 5; r++) {
  merge.push(
    cpuMs(() => {
      for (const b of batches) {
        const m = new EdgeMerge();
        for (const e of b) m.add(e);
        m.result(b);
      }
    }),
  );
  const Rows = EdgeCopyRows;
  if (Rows)
    encode.push(
      cpuMs(() => {
        for (let b = 0; b < 92; b++) {
          const rows = new Rows();
          for (let j = 0; j < 20_000; j++)
            rows.add(100000 + ((j * 7919) % 116000), 1 + ((j * 104729) % 116000), kinds[j % 40]!, props[j % 8]!);
          rows.chunks();
        }
      }),
    );
}
console.log(JSON.stringify({ root, merge_ms: merge, encode_ms: EdgeCopyRows ? encode : null }));
