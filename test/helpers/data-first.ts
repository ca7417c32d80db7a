import fs from 'node:fs';
import path from 'node:path';

/**
 * SharpHound writes `{"data":[…],"meta":{…}}`: data first, compact. The vendored fixtures are meta first, so this
 * rewrites one in the collector's order (other top-level keys are kept, after "meta").
 */
export function dataFirst(json: Buffer | string): string {
  const { data, meta, ...rest } = JSON.parse(json.toString().replace(/^\uFEFF/, '')) as Record<string, unknown>;
  return JSON.stringify({ data, meta, ...rest });
}

/** Writes the data-first variant of every .json file of `dirs` into `out` (same file names) and returns their paths. */
export function writeDataFirstVariants(files: string[], out: string): string[] {
  fs.mkdirSync(out, { recursive: true });
  return files.map((f) => {
    const target = path.join(out, path.basename(f));
    fs.writeFileSync(target, dataFirst(fs.readFileSync(f)));
    return target;
  });
}

// `npx tsx test/helpers/data-first.ts <out dir> <file.json>…` writes the variants for use outside the tests.
if (require.main === module) {
  const [out, ...files] = process.argv.slice(2);
  if (!out || !files.length) {
    process.stderr.write('usage: tsx test/helpers/data-first.ts <out dir> <file.json>…\n');
    process.exit(2);
  }
  for (const f of writeDataFirstVariants(files, out)) process.stdout.write(f + '\n');
}
