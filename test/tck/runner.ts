import fs from 'node:fs';
import path from 'node:path';
import { AstBuilder, compile, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator, type Pickle } from '@cucumber/messages';
import { execute, prepare } from '../../src/cypher/engine';
import { CypherError } from '../../src/cypher/errors';
import { MemoryGraph } from '../../src/cypher/graph/memory-graph';
import type { Value } from '../../src/cypher/execute/values';
import { canonicalOf, canonicalOfText, valueOfText } from './values';

/**
 * Runs openCypher TCK scenarios (the .feature files in shared/tck, Apache-2.0) against the engine: each scenario's
 * graph is built on a fresh in-memory graph through the test-only write path (its CREATE set-up statements), its
 * query runs, and the result is compared by the TCK's rules: rows in order or in any order, lists in order unless
 * the step says otherwise, errors by type and phase (compile time = prepare, runtime = execute; the detail code is
 * not compared).
 */

export const TCK_FEATURES = path.resolve(__dirname, '..', '..', '..', 'shared', 'tck', 'features');

export interface ScenarioOutcome {
  /** `clauses/match/Match1.feature: [2] Matching all nodes` (with `#n` for an outline's n-th example). */
  id: string;
  status: 'pass' | 'fail' | 'writes';
  reason?: string;
}

/** Scenarios whose query writes are outside a read-only engine's claim (counted apart, never as passing). */
const WRITING = /\b(CREATE|MERGE|SET|DELETE|REMOVE|FOREACH)\b/i;

export function pickles(file: string): readonly Pickle[] {
  const ids = IdGenerator.incrementing();
  const doc = new Parser(new AstBuilder(ids), new GherkinClassicTokenMatcher()).parse(fs.readFileSync(file, 'utf8'));
  return compile(doc, file, ids);
}

export async function runFeature(file: string): Promise<ScenarioOutcome[]> {
  const rel = path.relative(TCK_FEATURES, file);
  const seen = new Map<string, number>();
  const out: ScenarioOutcome[] = [];
  for (const p of pickles(file)) {
    const n = (seen.get(p.name) ?? 0) + 1;
    seen.set(p.name, n);
    const id = `${rel}: ${p.name}${n > 1 ? ` #${n}` : ''}`;
    try {
      const status = await runScenario(p);
      out.push({ id, status: status === 'writes' ? 'writes' : 'pass' });
    } catch (err) {
      out.push({ id, status: 'fail', reason: (err as Error).message.split('\n')[0]!.slice(0, 200) });
    }
  }
  return out;
}

async function runScenario(p: Pickle): Promise<'pass' | 'writes'> {
  const graph = new MemoryGraph();
  const values: Record<string, Value> = {};
  let result: { columns: string[]; rows: Value[][] } | undefined;
  let error: { phase: 'compile' | 'runtime'; err: CypherError } | undefined;
  const now = new Date('2024-01-01T00:00:00Z');
  for (const step of p.steps) {
    const text = step.text;
    const doc = step.argument?.docString?.content;
    const table = step.argument?.dataTable?.rows.map((r) => r.cells.map((c) => c.value));
    if (text === 'an empty graph' || text === 'any graph') continue;
    if (text.startsWith('there exists a procedure')) throw new Error('procedures are not supported');
    if (text === 'having executed:') {
      await execute(prepare(doc!, { testWrites: true }), graph, { now });
      continue;
    }
    if (text === 'parameters are:') {
      for (const [k, v] of table!) values[k!] = valueOfText(v!);
      continue;
    }
    if (text === 'executing query:' || text === 'executing control query:') {
      if (WRITING.test(doc!.replace(/'[^']*'|"[^"]*"/g, ''))) return 'writes';
      let prepared;
      try {
        prepared = prepare(doc!);
      } catch (err) {
        if (!(err instanceof CypherError)) throw err;
        error = { phase: 'compile', err };
        continue;
      }
      try {
        const r = await execute(prepared, graph, { values, now });
        result = { columns: r.columns, rows: r.rows };
      } catch (err) {
        if (!(err instanceof CypherError)) throw err;
        error = { phase: 'runtime', err };
      }
      continue;
    }
    const raised = /^an? (\w+) should be raised at (compile time|runtime|any time): ?(\w*)/.exec(text);
    if (raised) {
      if (!error) throw new Error(`expected ${raised[1]} at ${raised[2]}, got a result`);
      const wantPhase = raised[2] === 'compile time' ? 'compile' : raised[2] === 'runtime' ? 'runtime' : undefined;
      if (wantPhase && wantPhase !== error.phase)
        throw new Error(`expected ${raised[1]} at ${raised[2]}, got ${error.err.tck.type} at ${error.phase}: ${error.err.message}`);
      if (!sameErrorType(raised[1]!, error.err.tck.type))
        throw new Error(`expected ${raised[1]}, got ${error.err.tck.type}: ${error.err.message}`);
      error = undefined;
      continue;
    }
    if (text.startsWith('the result should be')) {
      if (error) throw new Error(`expected a result, got ${error.err.tck.type}: ${error.err.message}`);
      compareResult(text, table ?? [], result!, graph);
      continue;
    }
    if (text === 'no side effects' || text.startsWith('the side effects should be')) continue;
    throw new Error(`unknown step: ${text}`);
  }
  if (error) throw new Error(`unexpected ${error.err.tck.type}: ${error.err.message}`);
  return 'pass';
}

/** The TCK's SyntaxError covers what this engine reports as semantic errors; the other types must match. */
function sameErrorType(expected: string, actual: string): boolean {
  const group = (t: string) => (t === 'SyntaxError' || t === 'SemanticError' ? 'Syntax' : t);
  return group(expected) === group(actual);
}

function compareResult(step: string, table: string[][], result: { columns: string[]; rows: Value[][] }, graph: MemoryGraph): void {
  const unorderedLists = step.includes('ignoring element order for lists');
  const ordered = step.includes('in order');
  if (step === 'the result should be empty') {
    if (result.rows.length) throw new Error(`expected no rows, got ${result.rows.length}`);
    return;
  }
  const [header, ...rows] = table;
  if (JSON.stringify(header) !== JSON.stringify(result.columns)) {
    throw new Error(`columns: expected ${JSON.stringify(header)}, got ${JSON.stringify(result.columns)}`);
  }
  const expected = rows.map((r) => r.map((c) => canonicalOfText(c, unorderedLists)).join(' | '));
  const actual = result.rows.map((r) => r.map((v) => canonicalOf(v, graph, unorderedLists)).join(' | '));
  if (!ordered) {
    expected.sort();
    actual.sort();
  }
  if (JSON.stringify(expected) !== JSON.stringify(actual)) {
    throw new Error(`rows: expected ${JSON.stringify(expected).slice(0, 300)}, got ${JSON.stringify(actual).slice(0, 300)}`);
  }
}

/** The feature files of the clauses and expressions the engine claims (docs/cypher.md). */
export const CLAIMED = [
  'clauses/match',
  'clauses/match-where',
  'clauses/return',
  'clauses/return-orderby',
  'clauses/return-skip-limit',
  'clauses/with',
  'clauses/with-orderBy',
  'clauses/with-skip-limit',
  'clauses/with-where',
  'clauses/unwind',
  'clauses/union',
  'expressions/aggregation',
  'expressions/boolean',
  'expressions/comparison',
  'expressions/conditional',
  'expressions/existentialSubqueries',
  'expressions/graph',
  'expressions/list',
  'expressions/literals',
  'expressions/map',
  'expressions/mathematical',
  'expressions/null',
  'expressions/path',
  'expressions/pattern',
  'expressions/precedence',
  'expressions/quantifier',
  'expressions/string',
  'expressions/typeConversion',
];

export function claimedFeatureFiles(): string[] {
  return CLAIMED.flatMap((dir) =>
    fs
      .readdirSync(path.join(TCK_FEATURES, dir))
      .filter((f) => f.endsWith('.feature'))
      .sort()
      .map((f) => path.join(TCK_FEATURES, dir, f)),
  );
}
