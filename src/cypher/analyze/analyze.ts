import type { Clause, Expr, PatternPart, Projection, Query, SingleQuery } from '../model/ast.js';
import { CypherError, semanticError } from '../errors.js';
import type { ExecContext } from '../execute/context.js';
import { AGGREGATES, evaluate, hasAggregate } from '../execute/eval.js';
import { isFunction } from '../execute/functions.js';
import { directChildren } from '../plan/expressions.js';

/**
 * Stage 3: checks a query before anything runs, with the TCK's compile-time error codes: every variable is defined
 * where it is read, WITH items are aliased, column names are unique, aggregates stand where they may, functions
 * exist, the query ends with RETURN, SKIP and LIMIT are non-negative integers. Returns the property keys the query
 * reads (`n.key`), so the live graph can load those columns before the run.
 */
export interface Analysis {
  propertyKeys: Set<string>;
  /** Whether the query reads whole property maps (properties(n), n {.*}, keys(n), n[expr]): no column list suffices. */
  readsAllProperties: boolean;
}

/** What a variable is known to hold: a pattern's node, relationship or path, or a value of another kind. */
type VarType = 'node' | 'rel' | 'path' | 'value' | 'any';
type Types = Map<string, VarType>;

export function analyze(q: Query, outer: ReadonlySet<string> = new Set(), outerTypes: Types = new Map()): Analysis {
  const a: Analysis = { propertyKeys: new Set(), readsAllProperties: false };
  for (const part of q.parts) single(part, new Set(outer), a, outer.size > 0, new Map(outerTypes));
  return a;
}

function single(q: SingleQuery, scope: Set<string>, a: Analysis, nested: boolean, types: Types): void {
  const clauses = q.clauses;
  clauses.forEach((c, i) => {
    if (c.kind === 'return' && i !== clauses.length - 1) {
      throw semanticError('InvalidClauseComposition', 'RETURN can only be used at the end of the query.');
    }
  });
  const last = clauses[clauses.length - 1];
  if (!nested && last?.kind !== 'return' && last?.kind !== 'create') {
    throw semanticError(
      'InvalidClauseComposition',
      `Query cannot conclude with ${last ? last.kind.toUpperCase() : 'nothing'} (must be a RETURN clause).`,
    );
  }
  for (const c of clauses) clause(c, scope, a, types);
}

function clause(c: Clause, scope: Set<string>, a: Analysis, types: Types): void {
  switch (c.kind) {
    case 'match': {
      const introduced = new Set<string>();
      const clauseTypes = new Map(types);
      for (const p of c.patterns) typeCheck(p, clauseTypes, types);
      for (const [k, v] of clauseTypes) types.set(k, v);
      for (const p of c.patterns) pattern(p, scope, introduced, a);
      for (const v of introduced) scope.add(v);
      if (c.where) {
        noAggregate(c.where, 'WHERE');
        expr(c.where, scope, a);
      }
      return;
    }
    case 'unwind':
      noAggregate(c.expr, 'UNWIND');
      expr(c.expr, scope, a);
      scope.add(c.variable);
      types.set(c.variable, 'any');
      return;
    case 'with': {
      const next = projection(c.projection, scope, a, true);
      const projected = new Map<string, VarType>();
      if (c.projection.star) for (const v of scope) projected.set(v, types.get(v) ?? 'any');
      for (const i of c.projection.items) projected.set(i.name, typeOf(i.expr, types));
      types.clear();
      for (const [k, v] of projected) types.set(k, v);
      scope.clear();
      for (const v of next) scope.add(v);
      if (c.where) {
        noAggregate(c.where, 'WHERE');
        expr(c.where, scope, a);
      }
      return;
    }
    case 'return':
      projection(c.projection, scope, a, false);
      return;
    case 'create':
      for (const p of c.patterns) {
        const introduced = new Set<string>();
        pattern(p, scope, introduced, a);
        for (const v of introduced) scope.add(v);
      }
      return;
  }
}

function projection(p: Projection, scope: Set<string>, a: Analysis, isWith: boolean): string[] {
  if (p.star && ![...scope].some((v) => !v.startsWith(' '))) {
    throw semanticError('NoVariablesInScope', `${isWith ? 'WITH' : 'RETURN'} * is not allowed when there are no variables in scope.`);
  }
  const names = new Set<string>();
  for (const item of p.items) {
    if (isWith && !item.aliased && item.expr.kind !== 'var') {
      throw semanticError('NoExpressionAlias', 'Expression in WITH must be aliased (use AS).');
    }
    if (names.has(item.name))
      throw semanticError('ColumnNameConflict', `Multiple result columns with the same name \`${item.name}\` are not supported.`);
    names.add(item.name);
    expr(item.expr, scope, a);
  }
  const out = [...(p.star ? [...scope] : []), ...names];
  const aggregating = p.items.some((i) => hasAggregate(i.expr));
  const orderScope = new Set(aggregating || p.distinct ? [...out] : [...scope, ...out]);
  for (const o of p.order) {
    if (!aggregating && hasAggregate(o.expr))
      throw semanticError(
        'InvalidAggregation',
        'Cannot use aggregation in ORDER BY if there are no aggregate expressions in the preceding projection.',
      );
    if (aggregating && hasAggregate(o.expr) && !p.items.some((i) => JSON.stringify(i.expr) === JSON.stringify(o.expr))) {
      throw semanticError('InvalidAggregation', 'Aggregations in ORDER BY must also be projected.');
    }
    const matchesItem = p.items.some((i) => JSON.stringify(i.expr) === JSON.stringify(o.expr));
    if (!matchesItem) expr(o.expr, orderScope, a, aggregating || p.distinct ? 'ORDER BY' : undefined);
  }
  for (const [e, what] of [
    [p.skip, 'SKIP'],
    [p.limit, 'LIMIT'],
  ] as const) {
    if (!e) continue;
    if (e.kind === 'lit' && (typeof e.value !== 'number' || e.value < 0)) {
      throw semanticError(
        typeof e.value === 'number' ? 'NegativeIntegerArgument' : 'InvalidArgumentType',
        `${what} must be a non-negative integer.`,
      );
    }
    expr(e, new Set(), a, what);
  }
  return out;
}

/** What an expression of WITH gives its alias, as far as the analysis can tell. */
function typeOf(e: Expr, types: Types): VarType {
  if (e.kind === 'var') return types.get(e.name) ?? 'any';
  return isConstant(e) ? 'value' : 'any';
}

/**
 * A variable keeps its kind: a node variable cannot name a relationship or a path (VariableTypeConflict), a
 * relationship is bound once per MATCH, a path variable once in all (VariableAlreadyBound).
 */
function typeCheck(p: PatternPart, clauseTypes: Types, before: Types): void {
  const declare = (name: string, kind: 'node' | 'rel' | 'path') => {
    const known = clauseTypes.get(name);
    if (known === undefined) {
      clauseTypes.set(name, kind);
      return;
    }
    if (kind === 'path') throw semanticError('VariableAlreadyBound', `Variable \`${name}\` already declared.`);
    if (known !== kind && known !== 'any') {
      throw semanticError('VariableTypeConflict', `Type mismatch: \`${name}\` defined with conflicting type ${known} (expected ${kind}).`);
    }
    if (kind === 'rel' && !before.has(name))
      throw semanticError('VariableAlreadyBound', `Variable \`${name}\` already declared in this pattern.`);
  };
  for (const n of p.nodes) if (n.variable) declare(n.variable, 'node');
  for (const r of p.rels) if (r.variable) declare(r.variable, 'rel');
  if (p.pathVariable) declare(p.pathVariable, 'path');
}

function noAggregate(e: Expr, where: string): void {
  if (hasAggregate(e)) throw semanticError('InvalidAggregation', `Invalid use of aggregating function in ${where}.`);
}

function pattern(p: PatternPart, scope: Set<string>, introduced: Set<string>, a: Analysis): void {
  const local = new Set([...scope, ...introduced]);
  for (const n of p.nodes) if (n.variable) local.add(n.variable);
  for (const r of p.rels) {
    if (r.variable) {
      if (introduced.has(r.variable) && !scope.has(r.variable)) {
        throw semanticError('VariableAlreadyBound', `Variable \`${r.variable}\` already declared in this pattern.`);
      }
      local.add(r.variable);
    }
  }
  for (const n of p.nodes) {
    if (n.variable) introduced.add(n.variable);
    if (n.properties) expr(n.properties, local, a);
    if (n.where) expr(n.where, local, a);
  }
  for (const r of p.rels) {
    if (r.variable) introduced.add(r.variable);
    if (r.properties) expr(r.properties, local, a);
    if (r.where) expr(r.where, local, a);
  }
  if (p.pathVariable) {
    if (scope.has(p.pathVariable) || introduced.has(p.pathVariable)) {
      throw semanticError('VariableAlreadyBound', `Variable \`${p.pathVariable}\` already declared.`);
    }
    introduced.add(p.pathVariable);
  }
}

/** An expression of literals only. */
function isConstant(e: Expr): boolean {
  if (e.kind === 'lit') return true;
  if (e.kind === 'list') return e.items.every(isConstant);
  if (e.kind === 'map') return e.entries.every(([, v]) => isConstant(v));
  if (e.kind === 'neg') return isConstant(e.arg);
  return false;
}

/** Operators whose operand types Neo4j checks when it plans: a literal of the wrong type is refused before running. */
const TYPED_OPERATORS = new Set(['and', 'or', 'xor', '%', '*', '/', '-', '^']);

/**
 * An operator applied to literals of the wrong type (`NOT 1`, `true AND 'x'`) is a compile-time error, as in Neo4j:
 * it is evaluated here, and a type error it raises is reported before the query runs.
 */
function checkLiteralTypes(e: Expr): void {
  const operands = e.kind === 'not' ? [e.arg] : e.kind === 'binary' && TYPED_OPERATORS.has(e.op) ? [e.left, e.right] : null;
  if (!operands || !operands.every(isConstant)) return;
  try {
    evaluate(e, {}, CONSTANT_CONTEXT);
  } catch (err) {
    if (err instanceof CypherError && err.tck.type === 'TypeError') throw semanticError('InvalidArgumentType', err.message);
  }
}

/** Enough of a context to evaluate literals (nothing of the graph is read). */
const CONSTANT_CONTEXT = { params: {}, budget: { step() {}, hold() {}, release() {} } } as unknown as ExecContext;

/** Checks an expression's variables against the scope; notes the properties it reads. */
function expr(e: Expr, scope: ReadonlySet<string>, a: Analysis, context?: string): void {
  checkLiteralTypes(e);
  switch (e.kind) {
    case 'var':
      if (!scope.has(e.name)) {
        throw semanticError(
          'UndefinedVariable',
          context ? `In ${context}: variable \`${e.name}\` not defined.` : `Variable \`${e.name}\` not defined.`,
        );
      }
      return;
    case 'prop':
      a.propertyKeys.add(e.key);
      break;
    case 'index':
      if (e.index.kind === 'lit' && typeof e.index.value === 'string') a.propertyKeys.add(e.index.value);
      else a.readsAllProperties = true;
      break;
    case 'call':
      if (!AGGREGATES.has(e.name) && !isFunction(e.name)) throw semanticError('UnknownFunction', `Unknown function '${e.name}'.`);
      if (e.name === 'properties' || e.name === 'keys') a.readsAllProperties = true;
      break;
    case 'mapProjection':
      if (!scope.has(e.variable)) throw semanticError('UndefinedVariable', `Variable \`${e.variable}\` not defined.`);
      for (const i of e.items) {
        if (i.kind === 'all') a.readsAllProperties = true;
        if (i.kind === 'property') a.propertyKeys.add(i.key);
        if (i.kind === 'variable' && !scope.has(i.name)) throw semanticError('UndefinedVariable', `Variable \`${i.name}\` not defined.`);
      }
      break;
    case 'listComp':
    case 'quantifier': {
      expr(e.list, scope, a, context);
      const inner = new Set([...scope, e.variable]);
      if (e.where) expr(e.where, inner, a, context);
      if (e.kind === 'listComp' && e.map) expr(e.map, inner, a, context);
      return;
    }
    case 'reduce': {
      expr(e.init, scope, a, context);
      expr(e.list, scope, a, context);
      expr(e.expr, new Set([...scope, e.acc, e.variable]), a, context);
      return;
    }
    case 'pattern': {
      const introduced = new Set<string>();
      patternExpression(e.pattern, scope, introduced, a);
      const fresh = [...introduced].find((v) => !scope.has(v));
      if (fresh)
        throw semanticError('UndefinedVariable', `Variable \`${fresh}\` not defined (a pattern predicate cannot introduce new variables).`);
      return;
    }
    case 'patternComp': {
      const introduced = new Set<string>();
      patternExpression(e.pattern, scope, introduced, a);
      const inner = new Set([...scope, ...introduced]);
      if (e.where) expr(e.where, inner, a, context);
      expr(e.map, inner, a, context);
      return;
    }
    case 'exists':
    case 'countSubquery': {
      if (e.kind === 'exists' && e.predicate) {
        const introduced = new Set<string>();
        for (const p of e.patterns) pattern(p, new Set(scope), introduced, a);
        const fresh = [...introduced].find((v) => !scope.has(v));
        if (fresh)
          throw semanticError(
            'UndefinedVariable',
            `Variable \`${fresh}\` not defined (a pattern predicate cannot introduce new variables).`,
          );
        return;
      }
      if (e.query) {
        const inner = analyze(e.query, new Set(scope));
        for (const k of inner.propertyKeys) a.propertyKeys.add(k);
        a.readsAllProperties ||= inner.readsAllProperties;
        return;
      }
      const introduced = new Set<string>();
      for (const p of e.patterns) pattern(p, new Set(scope), introduced, a);
      if (e.where) expr(e.where, new Set([...scope, ...introduced]), a, context);
      return;
    }
    default:
      break;
  }
  for (const c of directChildren(e)) expr(c, scope, a, context);
}

/** A pattern inside an expression may not introduce named variables of its own except in comprehensions. */
function patternExpression(p: PatternPart, scope: ReadonlySet<string>, introduced: Set<string>, a: Analysis): void {
  pattern(p, new Set(scope), introduced, a);
}
