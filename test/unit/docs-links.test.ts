import fs from 'node:fs';
import path from 'node:path';

/**
 * The documentation names only what a clone holds: every relative link and every repository path mentioned in
 * README.md and docs/*.md exists, no link climbs out of the repository (a clone has no `../shared/…`), and the only
 * links that leave it go to public https sites.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Produced by `npm run codegen`/`npm run build`, so named by the docs but absent from a fresh clone. */
const GENERATED = ['src/generated/', 'dist/'];

/** `[text](target)` links, outside HTML comments. */
function links(text: string): string[] {
  const visible = text.replace(/<!--[\s\S]*?-->/g, '');
  return [...visible.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/**
 * Repository paths a doc names in prose or commands: anything under the top-level folders, or .ci/. A path that is
 * a pattern (`<area>`, `NNNN`, `*`, `…`) stands for many files and is checked up to the pattern, as a folder.
 */
function mentionedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![\w./-])((?:src|test|bench|docs|schema|\.ci)\/[\w./<>*…{}-]*)/g)) {
    let p = m[1]!;
    const pattern = p.search(/[<>*…{}]|NNNN/);
    if (pattern >= 0) p = p.slice(0, p.lastIndexOf('/', pattern) + 1);
    p = p.replace(/[.,:;]+$/, '');
    if (p.includes('/')) found.add(p);
  }
  return [...found];
}

const exists = (p: string) => GENERATED.some((g) => p.startsWith(g)) || fs.existsSync(path.join(ROOT, p));

describe('documentation links', () => {
  it.each(DOCS)('%s: every relative link exists and stays in the repository; others are public https', (doc) => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    const bad: string[] = [];
    for (const target of links(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        if (!/^https:\/\/[^/\s]+\.[a-z]{2,}(\/|$)/i.test(target) || /^https:\/\/(localhost|127\.|10\.|192\.168\.)/i.test(target))
          bad.push(`${target}: not a public https link`);
        continue;
      }
      if (target.startsWith('#')) continue;
      const file = path.normalize(path.join(path.dirname(doc), target.split('#')[0]!));
      if (file.startsWith('..') || path.isAbsolute(file)) bad.push(`${target}: outside the repository`);
      else if (!exists(file)) bad.push(`${target}: no such file`);
    }
    expect(bad).toEqual([]);
  });

  it.each(DOCS)('%s: every src/, test/, bench/, docs/ and schema/ path it names exists', (doc) => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    expect(mentionedPaths(text).filter((p) => !exists(p))).toEqual([]);
  });

  it('names no file outside the clone (../shared and the like)', () => {
    const offenders = DOCS.filter((doc) =>
      /\.\.\/shared\b|(?<![\w/])shared\/(spec|reference|fixtures)\//.test(fs.readFileSync(path.join(ROOT, doc), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('finds what it is meant to find (the checker itself)', () => {
    expect(mentionedPaths('see `src/db/migrations/NNNN_what.sql`, src/services/<area>/x.ts and bench/probes/gone.ts.')).toEqual([
      'src/db/migrations/',
      'src/services/',
      'bench/probes/gone.ts',
    ]);
    expect(links('[a](docs/x.md) <!-- [b](y.md) --> [c](https://example.com/)')).toEqual(['docs/x.md', 'https://example.com/']);
  });
});
