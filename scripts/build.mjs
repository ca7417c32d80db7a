#!/usr/bin/env node
// `npm start`'s build: each step runs only when its inputs changed since it last ran, so a second start costs a few
// hashes (well under a second) instead of codegen, tsc and vite. `--force` runs every step.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function files(rel) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [rel];
  return fs.readdirSync(abs).flatMap((name) => files(path.join(rel, name)));
}

function digest(inputs) {
  const hash = createHash('sha256');
  for (const f of inputs.flatMap((i) => files(i)).sort())
    hash
      .update(f)
      .update('\0')
      .update(fs.readFileSync(path.join(root, f)))
      .update('\0');
  return hash.digest('hex');
}

/** Runs `args` when `inputs` hash differently from the stamp left by the last run (or an output is missing). */
function whenChanged(stamp, inputs, outputs, args) {
  const sources = digest(inputs);
  const current = fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === sources;
  if (!force && current && outputs.every((f) => fs.existsSync(path.join(root, f)))) return;
  run(args);
  fs.writeFileSync(stamp, sources + '\n');
}

// 1. GraphQL types (src/generated), from the schema and the REST operation documents.
whenChanged(
  path.join(root, 'src', 'generated', '.source-hash'),
  ['schema', 'src/rest/operations', 'codegen.yml', 'package-lock.json'],
  ['src/generated/graphql.ts', 'src/generated/operations.ts'],
  [path.join(root, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js'), '--config', 'codegen.yml'],
);

// 2. The server (dist/), from src/ (generated types included) and the compiler settings.
whenChanged(
  path.join(root, 'dist', '.source-hash'),
  ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
  ['dist/cli.js'],
  [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
);

// 3. The web app (dist/web), by its own check.
run(['web/scripts/build-if-changed.mjs', ...(force ? ['--force'] : [])]);
