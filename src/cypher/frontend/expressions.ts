import type { BinaryOp, Expr, LabelExpr, MapProjectionItem } from '../model/ast.js';
import { semanticError, unsupported } from '../errors.js';
import { float } from '../execute/values.js';
import { grammar, positionOf } from '../parse/parser.js';
import { nameOf, onlyChild, type Build, type Ctx } from './context.js';

/** Stage 2 for expressions: parse-tree expressions (expression … expression1) → the query model's Expr. */

const rule = (ctx: Ctx): string => grammar().CypherParser.ruleNames[ctx.ruleIndex] ?? '';

const COMPARISON: Record<string, BinaryOp> = { '=': '=', '<>': '<>', '!=': '<>', '<': '<', '>': '>', '<=': '<=', '>=': '>=' };

/** Left-associative chains of one operator level: `a OR b OR c`, `a + b - c`. */
function chain(ctx: Ctx, operand: (c: Ctx) => Expr): Expr {
  const kids: Ctx[] = ctx.children ?? [];
  let left: Expr | undefined;
  let op: string | undefined;
  for (const k of kids) {
    if (k.symbol !== undefined) {
      op = String(k.getText()).toUpperCase();
      continue;
    }
    const right = operand(k);
    left = left === undefined ? right : { kind: 'binary', op: binaryOp(op!), left, right };
  }
  if (!left) throw unsupported(`'${ctx.getText()}'`);
  return left;
}

function binaryOp(token: string): BinaryOp {
  switch (token) {
    case 'OR':
      return 'or';
    case 'XOR':
      return 'xor';
    case 'AND':
      return 'and';
    case '||':
      return '+';
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case '^':
      return token;
    default:
      throw unsupported(`The operator ${token}`);
  }
}

export function expression(b: Build, ctx: Ctx): Expr {
  switch (rule(ctx)) {
    case 'expression':
    case 'expression11':
    case 'expression10':
    case 'expression6':
    case 'expression5':
    case 'expression4':
      return chain(ctx, (c) => expression(b, c));
    case 'expression9': {
      const nots = (ctx.NOT_list?.() ?? []).length;
      let e = expression(b, ctx.expression8());
      for (let i = 0; i < nots; i++) e = { kind: 'not', arg: e };
      return e;
    }
    case 'expression8':
      return comparisons(b, ctx);
    case 'expression7': {
      const left = expression(b, ctx.expression6());
      const cmp = ctx.comparisonExpression6();
      return cmp ? comparison6(b, left, cmp) : left;
    }
    case 'expression3': {
      const inner = expression(b, ctx.expression2());
      if (ctx.MINUS?.()) return negate(inner);
      return inner;
    }
    case 'expression2':
      return postfixes(b, ctx);
    case 'expression1':
      return primary(b, onlyChild(ctx));
    case 'functionArgument':
    case 'procedureArgument':
      return expression(b, ctx.expression());
    default:
      return primary(b, ctx);
  }
}

/**
 * An expression where a condition is wanted (WHERE, CASE WHEN, comprehension filters): a bare pattern there is a
 * pattern predicate, true when the pattern has a match.
 */
export function predicate(e: Expr): Expr {
  switch (e.kind) {
    case 'pattern':
      return { kind: 'exists', patterns: [e.pattern], where: null, query: null, predicate: true };
    case 'not':
      return { kind: 'not', arg: predicate(e.arg) };
    case 'binary':
      if (e.op === 'and' || e.op === 'or' || e.op === 'xor') return { ...e, left: predicate(e.left), right: predicate(e.right) };
      return e;
    default:
      return e;
  }
}

/** `-5` is the literal -5 (so -9223372036854775808 fits); anything else is negated when evaluated. */
function negate(e: Expr): Expr {
  if (e.kind === 'lit' && typeof e.value === 'number') return { kind: 'lit', value: -e.value };
  return { kind: 'neg', arg: e };
}

/** `a < b <= c` is `a < b AND b <= c` in Cypher. */
function comparisons(b: Build, ctx: Ctx): Expr {
  const kids: Ctx[] = ctx.children ?? [];
  const operands: Expr[] = [];
  const ops: BinaryOp[] = [];
  for (const k of kids) {
    if (k.symbol !== undefined) ops.push(COMPARISON[String(k.getText())] ?? '=');
    else operands.push(expression(b, k));
  }
  if (operands.length === 1) return operands[0]!;
  let result: Expr | undefined;
  for (let i = 0; i < ops.length; i++) {
    const cmp: Expr = { kind: 'binary', op: ops[i]!, left: operands[i]!, right: operands[i + 1]! };
    result = result ? { kind: 'binary', op: 'and', left: result, right: cmp } : cmp;
  }
  return result!;
}

/** The comparisons of `expression7`: string and list operators, IS NULL, label tests. */
function comparison6(b: Build, left: Expr, ctx: Ctx): Expr {
  const G = grammar();
  if (ctx instanceof G.StringAndListComparisonContext) {
    const right = expression(b, ctx.expression6());
    const op: BinaryOp = ctx.REGEQ() ? '=~' : ctx.STARTS() ? 'startsWith' : ctx.ENDS() ? 'endsWith' : ctx.CONTAINS() ? 'contains' : 'in';
    return { kind: 'binary', op, left, right };
  }
  if (ctx instanceof G.NullComparisonContext) return { kind: 'isNull', arg: left, negated: !!ctx.NOT() };
  if (ctx instanceof G.LabelComparisonContext) return { kind: 'hasLabels', arg: left, labels: labelExpression(ctx.labelExpression()) };
  if (ctx instanceof G.TypeComparisonContext) throw unsupported('Type predicates (IS :: TYPE)');
  throw unsupported('IS NORMALIZED');
}

function postfixes(b: Build, ctx: Ctx): Expr {
  const G = grammar();
  let e = expression(b, ctx.expression1());
  for (const p of ctx.postFix_list()) {
    if (p instanceof G.PropertyPostfixContext) e = { kind: 'prop', target: e, key: nameOf(p.property().propertyKeyName()) };
    else if (p instanceof G.IndexPostfixContext) e = { kind: 'index', target: e, index: expression(b, p.expression()) };
    else {
      const from = p._fromExp ? expression(b, p._fromExp) : null;
      const to = p._toExp ? expression(b, p._toExp) : null;
      e = { kind: 'slice', target: e, from, to };
    }
  }
  return e;
}

function primary(b: Build, ctx: Ctx): Expr {
  switch (rule(ctx)) {
    case 'literal':
      return literal(b, ctx);
    case 'parameter':
      return { kind: 'param', name: nameOf(ctx.parameterName()) };
    case 'variable':
      return { kind: 'var', name: nameOf(ctx) };
    case 'parenthesizedExpression':
      return expression(b, ctx.expression());
    case 'listLiteral':
      return { kind: 'list', items: ctx.expression_list().map((e: Ctx) => expression(b, e)) };
    case 'functionInvocation':
      return functionCall(b, ctx);
    case 'countStar':
      return { kind: 'countStar' };
    case 'caseExpression':
      return {
        kind: 'case',
        subject: null,
        whens: ctx
          .caseAlternative_list()
          .map((a: Ctx) => ({ when: predicate(expression(b, a.expression(0))), then: expression(b, a.expression(1)) })),
        otherwise: ctx.ELSE() ? expression(b, ctx.expression()) : null,
      };
    case 'extendedCaseExpression':
      return extendedCase(b, ctx);
    case 'listComprehension':
      return {
        kind: 'listComp',
        variable: nameOf(ctx.variable()),
        list: expression(b, ctx.expression(0)),
        where: ctx._whereExp ? predicate(expression(b, ctx._whereExp)) : null,
        map: ctx._barExp ? expression(b, ctx._barExp) : null,
      };
    case 'listItemsPredicate':
      return {
        kind: 'quantifier',
        quantifier: ctx.ALL() ? 'all' : ctx.ANY() ? 'any' : ctx.NONE() ? 'none' : 'single',
        variable: nameOf(ctx.variable()),
        list: expression(b, ctx._inExp),
        where: ctx._whereExp ? predicate(expression(b, ctx._whereExp)) : null,
      };
    case 'reduceExpression':
      return {
        kind: 'reduce',
        acc: nameOf(ctx.variable(0)),
        init: expression(b, ctx.expression(0)),
        variable: nameOf(ctx.variable(1)),
        list: expression(b, ctx.expression(1)),
        expr: expression(b, ctx.expression(2)),
      };
    case 'patternComprehension': {
      const pattern = b.pathPattern(ctx.pathPatternNonEmpty());
      if (ctx.variable()) pattern.pathVariable = nameOf(ctx.variable());
      return {
        kind: 'patternComp',
        pattern,
        where: ctx._whereExp ? predicate(expression(b, ctx._whereExp)) : null,
        map: expression(b, ctx._barExp),
      };
    }
    case 'patternExpression':
      return { kind: 'pattern', pattern: b.pathPattern(ctx.pathPatternNonEmpty()) };
    case 'shortestPathExpression':
      return { kind: 'pattern', pattern: b.patternPart(ctx) };
    case 'existsExpression':
    case 'countExpression':
      return subquery(b, ctx, rule(ctx) === 'existsExpression' ? 'exists' : 'countSubquery');
    case 'mapProjection':
      return { kind: 'mapProjection', variable: nameOf(ctx.variable()), items: ctx.mapProjectionElement_list().map(projectionItem(b)) };
    case 'trimFunction':
      return trim(b, ctx);
    case 'collectExpression':
      throw unsupported('COLLECT { … } subqueries');
    case 'normalizeFunction':
      throw unsupported('normalize()');
    case 'vectorFunction':
      throw unsupported('vector()');
    default:
      throw unsupported(`'${String(ctx.getText()).slice(0, 60)}'`);
  }
}

function projectionItem(b: Build) {
  return (ctx: Ctx): MapProjectionItem => {
    if (ctx.TIMES()) return { kind: 'all' };
    if (ctx.propertyKeyName()) return { kind: 'entry', key: nameOf(ctx.propertyKeyName()), expr: expression(b, ctx.expression()) };
    if (ctx.property()) return { kind: 'property', key: nameOf(ctx.property().propertyKeyName()) };
    return { kind: 'variable', name: nameOf(ctx.variable()) };
  };
}

function subquery(b: Build, ctx: Ctx, kind: 'exists' | 'countSubquery'): Expr {
  if (ctx.matchMode()) throw unsupported('Match modes (REPEATABLE ELEMENTS, DIFFERENT RELATIONSHIPS)');
  if (ctx.regularQuery()) return { kind, patterns: [], where: null, query: b.query(ctx.regularQuery()) };
  const patterns = ctx
    .patternList()
    .pattern_list()
    .map((p: Ctx) => b.patternPart(p));
  const where = ctx.whereClause() ? predicate(expression(b, ctx.whereClause().expression())) : null;
  return { kind, patterns, where, query: null };
}

function extendedCase(b: Build, ctx: Ctx): Expr {
  const G = grammar();
  const subject = expression(b, ctx.expression(0));
  const whens = ctx.extendedCaseAlternative_list().map((alt: Ctx) => {
    const conditions: Expr[] = alt.extendedWhen_list().map((w: Ctx) => {
      if (w instanceof G.WhenEqualsContext) return { kind: 'binary', op: '=', left: subject, right: expression(b, w.expression()) } as Expr;
      if (w instanceof G.WhenSimpleComparisonContext) {
        const op = COMPARISON[String((w as Ctx).children[0].getText())] ?? '=';
        return { kind: 'binary', op, left: subject, right: expression(b, w.expression7()) } as Expr;
      }
      return comparison6(b, subject, w.comparisonExpression6());
    });
    const when = conditions.reduce((l, r) => ({ kind: 'binary', op: 'or', left: l, right: r }) as Expr);
    return { when, then: expression(b, alt.expression()) };
  });
  // A simple CASE compares with `=`, but there a null subject matches nothing rather than making the CASE null:
  // the searched form below gives exactly that (a null comparison is not true).
  return { kind: 'case', subject: null, whens, otherwise: ctx._elseExp ? expression(b, ctx._elseExp) : null };
}

function trim(b: Build, ctx: Ctx): Expr {
  const name = ctx.LEADING() ? 'ltrim' : ctx.TRAILING() ? 'rtrim' : 'trim';
  const args = [expression(b, ctx._trimSource)];
  if (ctx._trimCharacterString) args.push(expression(b, ctx._trimCharacterString));
  return { kind: 'call', name, args, distinct: false };
}

function functionCall(b: Build, ctx: Ctx): Expr {
  const fn = ctx.functionName();
  const namespace: string = fn.namespace().getText();
  const name = (namespace + nameOf(fn.symbolicNameString())).toLowerCase();
  const args = ctx.functionArgument_list().map((a: Ctx) => expression(b, a));
  return { kind: 'call', name, args, distinct: !!ctx.DISTINCT() };
}

function literal(b: Build, ctx: Ctx): Expr {
  const G = grammar();
  if (ctx instanceof G.NummericLiteralContext) return { kind: 'lit', value: numberLiteral(ctx.numberLiteral()) };
  if (ctx instanceof G.StringsLiteralContext) return { kind: 'lit', value: stringLiteral(ctx.stringLiteral()) };
  if (ctx instanceof G.BooleanLiteralContext) return { kind: 'lit', value: !!ctx.TRUE() };
  if (ctx instanceof G.KeywordLiteralContext) {
    if (ctx.NULL()) return { kind: 'lit', value: null };
    if (ctx.NAN()) return { kind: 'lit', value: float(NaN) };
    return { kind: 'lit', value: float(Infinity) };
  }
  return mapLiteral(b, ctx.map());
}

export function mapLiteral(b: Build, ctx: Ctx): Expr {
  const keys: Ctx[] = ctx.propertyKeyName_list();
  const values: Ctx[] = ctx.expression_list();
  return { kind: 'map', entries: keys.map((k, i) => [nameOf(k), expression(b, values[i])] as [string, Expr]) };
}

const MAX_INT = 2n ** 63n - 1n;

function numberLiteral(ctx: Ctx): number | ReturnType<typeof float> {
  const negative = !!ctx.MINUS();
  const text: string = ctx.getText().replace(/^-/, '');
  if (ctx.DECIMAL_DOUBLE()) {
    const v = Number(text);
    if (!Number.isFinite(v))
      throw semanticError('FloatingPointOverflow', `The floating point number ${text} is too large.`, positionOf(ctx));
    return float(negative ? -v : v);
  }
  let big: bigint;
  try {
    const lower = text.toLowerCase();
    big = lower.startsWith('0x')
      ? BigInt(lower)
      : lower.startsWith('0o')
        ? BigInt(lower)
        : /^0\d/.test(lower)
          ? BigInt(`0o${lower.slice(1)}`)
          : BigInt(lower);
  } catch {
    throw semanticError('InvalidNumberLiteral', `Invalid number literal ${text}.`, positionOf(ctx));
  }
  if (big > MAX_INT + (negative ? 1n : 0n)) throw semanticError('IntegerOverflow', `The integer ${text} is too large.`, positionOf(ctx));
  return Number(negative ? -big : big);
}

/** A string literal's value: quotes removed and escapes (\n, \t, \uXXXX, …) resolved. */
export function stringLiteral(ctx: Ctx): string {
  const raw: string = ctx.getText();
  const body = raw.slice(1, -1);
  return body.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/gs, (_m, e: string) => {
    switch (e[0]) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'u':
      case 'U':
        return String.fromCodePoint(parseInt(e.slice(1), 16));
      default:
        return e;
    }
  });
}

/** `:A:B`, `:A|B`, `:!A`, `:%` as a label expression. */
export function labelExpression(ctx: Ctx): LabelExpr {
  return label4(ctx.labelExpression4());
}

function label4(ctx: Ctx): LabelExpr {
  const items = ctx.labelExpression3_list().map(label3);
  return items.length === 1 ? items[0]! : { kind: 'or', items };
}

function label3(ctx: Ctx): LabelExpr {
  const items = ctx.labelExpression2_list().map(label2);
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

function label2(ctx: Ctx): LabelExpr {
  let e = label1(ctx.labelExpression1());
  for (let i = 0; i < (ctx.EXCLAMATION_MARK_list?.() ?? []).length; i++) e = { kind: 'not', item: e };
  return e;
}

function label1(ctx: Ctx): LabelExpr {
  const G = grammar();
  if (ctx instanceof G.ParenthesizedLabelExpressionContext) return label4(ctx.labelExpression4());
  if (ctx instanceof G.AnyLabelContext) return { kind: 'any' };
  if (ctx instanceof G.DynamicLabelContext) throw unsupported('Dynamic labels ($(…))');
  return { kind: 'name', name: nameOf(ctx.symbolicNameString()) };
}
