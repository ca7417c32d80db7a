/**
 * What goes wrong with a query, in the openCypher TCK's terms (its error types and phases), so the TCK runner can
 * compare them and the service can turn each into the right HTTP answer:
 *   - syntax: the text does not parse (line, column and what was expected)
 *   - semantic: it parses but means nothing (an undefined variable, an aggregate where none may be)
 *   - unsupported: valid Cypher this engine does not run (named in the message)
 *   - readOnly: a writing clause or procedure
 *   - limit: the query went past a per-query limit (memory budget, path length, list size)
 *   - timeout: the request's deadline passed while it ran
 *   - runtime: a value was wrong for an operation while it ran (TCK TypeError, ArgumentError, …)
 */
export type CypherErrorKind = 'syntax' | 'semantic' | 'unsupported' | 'readOnly' | 'limit' | 'timeout' | 'runtime';

/** The TCK's error types (features/…: "a SyntaxError should be raised at compile time: UndefinedVariable"). */
export type TckErrorType = 'SyntaxError' | 'SemanticError' | 'TypeError' | 'ArgumentError' | 'ParameterMissing' | 'EntityNotFound';

export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

export class CypherError extends Error {
  constructor(
    readonly kind: CypherErrorKind,
    message: string,
    readonly tck: { type: TckErrorType; detail: string } = {
      type: kind === 'runtime' ? 'TypeError' : 'SyntaxError',
      detail: kind,
    },
    readonly position?: SourcePosition,
  ) {
    super(message);
    this.name = 'CypherError';
  }
}

/** A compile-time error with the TCK detail code it matches (UndefinedVariable, InvalidAggregation, …). */
export const semanticError = (detail: string, message: string, position?: SourcePosition) =>
  new CypherError('semantic', message, { type: 'SyntaxError', detail }, position);

/** A run-time error: `type` is the TCK's (TypeError for a wrong type, ArgumentError for a bad value). */
export const runtimeError = (type: TckErrorType, detail: string, message: string) => new CypherError('runtime', message, { type, detail });

export const unsupported = (construct: string) =>
  new CypherError('unsupported', `${construct} is not supported by this Cypher engine (docs/cypher.md lists what is).`, {
    type: 'SyntaxError',
    detail: 'Unsupported',
  });

export const READ_ONLY_MESSAGE =
  'Cypher here is read-only: CREATE, MERGE, SET, DELETE, REMOVE, FOREACH, LOAD CSV and writing procedures are refused.';

export const readOnly = (clause: string) =>
  new CypherError('readOnly', `${clause}: ${READ_ONLY_MESSAGE}`, { type: 'SyntaxError', detail: 'ReadOnly' });

export const limitExceeded = (message: string) => new CypherError('limit', message, { type: 'ArgumentError', detail: 'Limit' });

export const timedOut = () =>
  new CypherError('timeout', 'The query ran past the request deadline and was cancelled.', { type: 'ArgumentError', detail: 'Timeout' });
