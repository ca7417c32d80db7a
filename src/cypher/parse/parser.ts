import type * as LanguageSupport from '@neo4j-cypher/language-support';
import { CypherError, type SourcePosition } from '../errors.js';

/**
 * Stage 1: text → parse tree, with Neo4j's own Cypher grammar (the ANTLR parser @neo4j-cypher/language-support
 * ships). The package is large (its bundle carries Neo4j's semantic analysis too: ~0.6 s and ~70 MB of heap to
 * load), so it is loaded on the first query, not when the service starts: processes that never see Cypher never
 * pay for it.
 */

type Lib = typeof LanguageSupport;

/** The few parts of ANTLR's runtime used here (its bundled type definitions are incomplete). */
interface Token {
  type: number;
  text: string;
  start: number;
  stop: number;
  line: number;
  column: number;
}
interface ParserRuleContext {
  start?: Token;
  stop?: Token;
}
interface Recognizer {
  removeErrorListeners(): void;
  addErrorListener(listener: unknown): void;
}
interface AntlrRuntime {
  CharStreams: { fromString(text: string): unknown };
  CommonTokenStream: new (lexer: unknown) => unknown;
}
let lib: Lib | undefined;

/** The parser package, loaded once. */
export function grammar(): Lib {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  lib ??= require('@neo4j-cypher/language-support') as Lib;
  return lib;
}

export type ParseTree = LanguageSupport.StatementsOrCommandsContext;

export interface Parsed {
  tree: ParseTree;
  text: string;
}

/** Longest query text accepted: the parser's memory grows with it, and no real query comes near. */
export const MAX_QUERY_CHARS = 100_000;

/**
 * Parses one query. A syntax error becomes a CypherError naming the line, the column (both 1-based) and what the
 * parser expected there, as Neo4j words it: `Invalid input 'RETURN': expected ')' … (line 1, column 10)`.
 */
export function parseText(text: string): Parsed {
  if (text.length > MAX_QUERY_CHARS) {
    throw new CypherError('limit', `The query is ${text.length} characters long; at most ${MAX_QUERY_CHARS} are accepted.`);
  }
  const { CypherLexer, CypherParser } = grammar();
  const antlr = grammar().antlrUtils as unknown as AntlrRuntime;
  const lexer = new CypherLexer(antlr.CharStreams.fromString(text) as never);
  const tokens = antlr.CommonTokenStream ? new antlr.CommonTokenStream(lexer) : undefined;
  const parser = new CypherParser(tokens as never);
  let first: CypherError | undefined;
  const listener = {
    syntaxError(recognizer: unknown, offending: Token | null, line: number, column: number, message: string, e?: ExpectedSource) {
      if (first) return;
      const expected = recognizer === parser ? expectedTokens(e?.getExpectedTokens ? e : (parser as unknown as ExpectedSource)) : [];
      const offendingText = offending ? (offending.type === -1 ? '' : offending.text) : tokenAt(text, line, column);
      const position: SourcePosition = { line, column: column + 1, offset: offending?.start ?? offsetOf(text, line, column) };
      first = syntaxError(offendingText, expected, message, position);
    },
    reportAmbiguity() {},
    reportAttemptingFullContext() {},
    reportContextSensitivity() {},
  };
  for (const r of [lexer, parser] as unknown as Recognizer[]) {
    r.removeErrorListeners();
    r.addErrorListener(listener);
  }
  const tree = parser.statementsOrCommands();
  if (first) throw neo4jWording(text) ?? first;
  return { tree, text };
}

/**
 * The syntax error as Neo4j words it, from the package's linter (which runs Neo4j's own error reporting: "expected a
 * graph pattern, a parameter, ')', ':', 'IS', 'WHERE' or '{'"). It costs tens of milliseconds, so only a query that
 * failed to parse pays for it; undefined when the linter has nothing (the parser's own message is used then).
 */
function neo4jWording(text: string): CypherError | undefined {
  let diagnostics;
  try {
    diagnostics = grammar().lintCypherQuery(text, {}, false) as unknown as {
      message: string;
      range: { start: { line: number; character: number } };
      offsets?: { start: number };
    }[];
  } catch {
    return undefined;
  }
  const d = diagnostics.find((x) => x.message.startsWith('Invalid input')) ?? diagnostics[0];
  if (!d) return undefined;
  const line = d.range.start.line + 1;
  const column = d.range.start.character + 1;
  const offset = d.offsets?.start ?? offsetOf(text, line, column - 1);
  return new CypherError(
    'syntax',
    `${d.message} (line ${line}, column ${column} (offset: ${offset}))`,
    { type: 'SyntaxError', detail: 'InvalidSyntax' },
    { line, column, offset },
  );
}

function syntaxError(offending: string, expected: string[], fallback: string, position: SourcePosition): CypherError {
  const at = `(line ${position.line}, column ${position.column} (offset: ${position.offset}))`;
  const input = offending === '' ? 'end of input' : `'${offending}'`;
  const message = expected.length
    ? `Invalid input ${input}: expected ${expected.join(', ')} ${at}`
    : `Invalid input ${input}: ${fallback} ${at}`;
  return new CypherError('syntax', message, { type: 'SyntaxError', detail: 'InvalidSyntax' }, position);
}

/** At most this many expected tokens are named; the rest are counted. */
const MAX_EXPECTED = 12;

/**
 * What the parser would have accepted where it stopped. Keywords are also names in Cypher, so where a name may
 * stand hundreds of keyword tokens are expected: they are summarised as "an identifier".
 */
interface ExpectedSource {
  getExpectedTokens(): { intervals?: { start: number; stop: number }[] | null };
}

function expectedTokens(source: ExpectedSource): string[] {
  let set;
  try {
    set = source.getExpectedTokens();
  } catch {
    return [];
  }
  const { CypherParser } = grammar();
  const names: string[] = [];
  let keywords = 0;
  for (const interval of set.intervals ?? []) {
    for (let t = interval.start; t < interval.stop; t++) {
      if (t === -1) {
        names.push('end of input');
        continue;
      }
      const literal = CypherParser.literalNames[t];
      const symbolic = CypherParser.symbolicNames[t];
      if (literal) names.push(literal.startsWith("'") ? literal.replace(/^'(.*)'$/, "'$1'") : literal);
      else if (symbolic && /^[A-Z_]+$/.test(symbolic) && !SPECIAL_TOKENS.has(symbolic)) keywords++;
      else if (symbolic) names.push(describeToken(symbolic));
    }
  }
  const punctuation = [...new Set(names)];
  const out = keywords > 40 ? [...punctuation, 'an identifier'] : punctuation;
  if (keywords && keywords <= 40) {
    for (const interval of set.intervals ?? []) {
      for (let t = interval.start; t < interval.stop; t++) {
        const s = CypherParser.symbolicNames[t];
        if (s && !CypherParser.literalNames[t] && /^[A-Z_]+$/.test(s) && !SPECIAL_TOKENS.has(s)) out.push(s.replace(/_/g, ' '));
      }
    }
  }
  if (out.length > MAX_EXPECTED) return [...out.slice(0, MAX_EXPECTED), `or one of ${out.length - MAX_EXPECTED} more`];
  return out;
}

const SPECIAL_TOKENS = new Set([
  'DECIMAL_DOUBLE',
  'UNSIGNED_DECIMAL_INTEGER',
  'UNSIGNED_HEX_INTEGER',
  'UNSIGNED_OCTAL_INTEGER',
  'STRING_LITERAL1',
  'STRING_LITERAL2',
  'ESCAPED_SYMBOLIC_NAME',
  'IDENTIFIER',
  'EXTENDED_IDENTIFIER',
  'ARROW_LINE',
  'ARROW_LEFT_HEAD',
  'ARROW_RIGHT_HEAD',
]);

function describeToken(symbolic: string): string {
  switch (symbolic) {
    case 'DECIMAL_DOUBLE':
    case 'UNSIGNED_DECIMAL_INTEGER':
    case 'UNSIGNED_HEX_INTEGER':
    case 'UNSIGNED_OCTAL_INTEGER':
      return 'a number';
    case 'STRING_LITERAL1':
    case 'STRING_LITERAL2':
      return 'a string';
    case 'ESCAPED_SYMBOLIC_NAME':
    case 'IDENTIFIER':
    case 'EXTENDED_IDENTIFIER':
      return 'an identifier';
    case 'ARROW_LINE':
      return "'-'";
    case 'ARROW_LEFT_HEAD':
      return "'<'";
    case 'ARROW_RIGHT_HEAD':
      return "'>'";
    default:
      return symbolic;
  }
}

function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
  return offset + column;
}

function tokenAt(text: string, line: number, column: number): string {
  const rest = text.slice(offsetOf(text, line, column));
  return /^\S+/.exec(rest)?.[0] ?? '';
}

/** The source text of a parse-tree node as written (column names of unaliased RETURN items). */
export function sourceOf(text: string, ctx: ParserRuleContext): string {
  const start = ctx.start?.start ?? 0;
  const stop = ctx.stop?.stop ?? start - 1;
  return text.slice(start, stop + 1);
}

/** Where a parse-tree node starts, for error messages. */
export function positionOf(ctx: ParserRuleContext): SourcePosition {
  return { line: ctx.start?.line ?? 1, column: (ctx.start?.column ?? 0) + 1, offset: ctx.start?.start ?? 0 };
}
