import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema } from '../../src/graphql/schema';
import { ROUTES } from '../../src/rest/routes/index';
import { OperationRunner } from '../../src/rest/run';

const SRC = path.resolve(__dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Top-level room of a source file: 'db', 'services', 'http', … ('.' for the shared leaf modules). */
const room = (file: string) => {
  const rel = path.relative(SRC, file).split(path.sep);
  return rel.length === 1 ? '.' : rel[0]!;
};

describe('architecture', () => {
  it('imports flow one way: http → rest/graphql → services → stores (dependency-cruiser, .dependency-cruiser.cjs)', () => {
    const root = path.resolve(__dirname, '..', '..');
    const bin = path.join(root, 'node_modules', '.bin', 'depcruise');
    const run = spawnSync(bin, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: root, encoding: 'utf8' });
    expect({ status: run.status, violations: run.status === 0 ? '' : run.stdout + run.stderr }).toEqual({ status: 0, violations: '' });
  }, 60000);

  it('keeps SQL in the database rooms', () => {
    const offenders = sourceFiles(SRC)
      .filter((f) => !['db', 'graph', 'ingest', 'analysis'].includes(room(f)))
      .filter((f) =>
        /\b(select|insert into|update \w+ set|delete from)\b[^'"`]*\b(from|values|where|set)\b/i.test(
          fs.readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, ''),
        ),
      );
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([]);
  });
});

describe('REST route table', () => {
  const schema = buildSchema();
  const runner = new OperationRunner(schema);

  it('every route runs a known operation, and every operation file validates', () => {
    for (const r of ROUTES) expect(runner.has(r.operation)).toBe(true);
    expect(runner.names.length).toBeGreaterThan(0);
  });

  it('routes sharing a method and path are told apart by `when`', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    for (const r of ROUTES)
      if (keys.filter((k) => k === `${r.method} ${r.path}`).length > 1)
        expect({ route: `${r.method} ${r.path}`, when: typeof r.when }).toEqual({ route: `${r.method} ${r.path}`, when: 'function' });
  });
});
