import fs from 'node:fs';

/**
 * Diagnosis: what a V8 heap snapshot holds, by node type and constructor name (self sizes, top N), to tell memory
 * kept from memory V8 has not collected yet. Take the snapshot with `node --heapsnapshot-signal=SIGUSR2 …` and
 * `kill -USR2 <pid>` (the snapshot follows a full collection, so it holds only what is reachable), then:
 *
 *   node --import tsx bench/probes/heap-snapshot-summary.ts Heap.*.heapsnapshot [N]
 */
interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string']);

function main(): void {
  const [file, top = '30'] = process.argv.slice(2);
  if (!file) throw new Error('usage: heap-snapshot-summary <file.heapsnapshot> [N]');
  const snap = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [width, typeAt, nameAt, sizeAt] = [fields.length, fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  const bySort = new Map<string, { bytes: number; count: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const name = STRING_TYPES.has(type) ? '(string)' : snap.strings[snap.nodes[i + nameAt]!]!.slice(0, 60);
    const size = snap.nodes[i + sizeAt]!;
    total += size;
    const key = `${type} ${name}`;
    const entry = bySort.get(key) ?? { bytes: 0, count: 0 };
    entry.bytes += size;
    entry.count++;
    bySort.set(key, entry);
  }
  process.stdout.write(`total ${(total / 1e6).toFixed(1)} MB\n`);
  for (const [key, { bytes, count }] of [...bySort].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(top))) {
    process.stdout.write(`${(bytes / 1e6).toFixed(1).padStart(8)} MB ${String(count).padStart(9)}  ${key}\n`);
  }
}

main();
