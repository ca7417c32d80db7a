#!/usr/bin/env node
// Builds the web app (codegen + vite build into dist/web) only when its sources changed since the last build:
// `npm start` runs this on every start, and an unchanged app costs a hash of its files (~50 ms), not a build.
// The inputs: the app's own files, the GraphQL schema its documents are typed against, the server's kind table it
// imports, and the lock file (a dependency upgrade rebuilds).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(web, '..');
const out = path.join(root, 'dist', 'web');
const stamp = path.join(out, '.source-hash');

const INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/codegen.yml',
  'web/package.json',
  'web/tsconfig.json',
  'schema',
  'src/graph/kinds.ts',
  'package-lock.json',
];

function files(rel) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [rel];
  return fs
    .readdirSync(abs, { withFileTypes: true })
    .filter((d) => !(d.isDirectory() && d.name === 'generated'))
    .flatMap((d) => files(path.join(rel, d.name)));
}

const hash = createHash('sha256');
for (const f of INPUTS.flatMap(files).sort())
  hash
    .update(f)
    .update('\0')
    .update(fs.readFileSync(path.join(root, f)))
    .update('\0');
const digest = hash.digest('hex');

const force = process.argv.includes('--force');
if (!force && fs.existsSync(path.join(out, 'index.html')) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === digest) {
  process.exit(0);
}
console.error('web: building the app (its sources changed)');
const run = spawnSync('npm', ['run', 'build', '--silent', '-w', 'web'], { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
fs.writeFileSync(stamp, digest + '\n');
