#!/usr/bin/env node
// Generates src/generated/ (graphql-codegen) only when its inputs changed since the last run: `npm start` builds on
// every start, and an unchanged schema costs a hash of its files (~20 ms), not codegen's several seconds.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'src', 'generated');
const stamp = path.join(out, '.source-hash');
const INPUTS = ['schema', 'src/rest/operations', 'codegen.yml', 'package-lock.json'];

function files(rel) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [rel];
  return fs.readdirSync(abs).flatMap((name) => files(path.join(rel, name)));
}

const hash = createHash('sha256');
for (const f of INPUTS.flatMap(files).sort()) hash.update(f).update('\0').update(fs.readFileSync(path.join(root, f))).update('\0');
const digest = hash.digest('hex');
const outputs = ['graphql.ts', 'operations.ts'].map((f) => path.join(out, f));
if (outputs.every((f) => fs.existsSync(f)) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === digest) process.exit(0);

const r = spawnSync(process.execPath, [path.join(root, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js'), '--config', 'codegen.yml'], {
  cwd: root,
  stdio: 'inherit',
});
if (r.status !== 0) process.exit(r.status ?? 1);
fs.writeFileSync(stamp, digest + '\n');
