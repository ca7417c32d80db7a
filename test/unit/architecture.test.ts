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
  return rel.length === 1 ? '.' : rel[0] === 'auth' && rel[1] === 'strategies' ? 'auth/strategies' : rel[0]!;
};

function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

/** Rooms each room may import from (besides itself and the shared leaf modules). One direction only. */
const ALLOWED: Record<string, string[]> = {
  '.': [],
  auth: ['services'], // type-only: BodySource
  db: [],
  graph: ['db'],
  ingest: ['graph', 'db'],
  analysis: ['graph', 'db'],
  services: ['auth', 'db', 'graph', 'ingest', 'analysis'],
  'auth/strategies': ['auth', 'services'],
  graphql: ['auth', 'services', 'generated'],
  rest: ['auth', 'graphql', 'services', 'generated'],
  http: ['auth', 'auth/strategies', 'db', 'graphql', 'rest', 'services'],
  neo4j: ['graph', 'db'],
  generate: [],
  cli: ['auth', 'services'], // the command line beside cli.ts (src/cli/)
};
const FORBIDDEN_PACKAGES: Record<string, RegExp> = {
  db: /^(express|graphql|graphql-yoga|@graphql-tools)/,
  graph: /^(express|graphql|graphql-yoga)/,
  ingest: /^(express|graphql|graphql-yoga)/,
  analysis: /^(express|graphql|graphql-yoga)/,
  services: /^(express|graphql-yoga)/,
};

describe('architecture', () => {
  it('imports flow one way: http → rest/graphql → services → stores', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = room(file);
      if (from === 'cli.ts' || path.basename(file) === 'cli.ts') continue;
      for (const spec of imports(file)) {
        if (!spec.startsWith('.')) {
          if (FORBIDDEN_PACKAGES[from]?.test(spec)) violations.push(`${path.relative(SRC, file)} imports package ${spec}`);
          continue;
        }
        const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
        const to = path.relative(SRC, target).startsWith('generated') ? 'generated' : room(target);
        if (to === from || to === '.') continue;
        if (!(ALLOWED[from] ?? []).includes(to)) violations.push(`${path.relative(SRC, file)} (${from}) imports ${spec} (${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps SQL in the database rooms', () => {
    const offenders = sourceFiles(SRC)
      .filter((f) => !['db', 'graph', 'ingest', 'analysis', 'neo4j'].includes(room(f)))
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
