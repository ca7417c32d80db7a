import type { Expr, PatternPart, Query } from '../model/ast.js';
import { unsupported } from '../errors.js';

/**
 * A node of the generated parser's tree. The contexts are navigated by the accessor each grammar rule gives
 * (`ctx.expression()`, `ctx.OPTIONAL()`), which the package types per class; the frontend reads many of them
 * generically, so they are typed loosely here and checked by the tests of each construct.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Ctx = any;

/** What the frontend's modules share: the source text and the builders they call across (no import cycles). */
export interface Build {
  text: string;
  /** CREATE is read into the model (the TCK's set-up on its in-memory graph); otherwise it is refused. */
  testWrites: boolean;
  expr(ctx: Ctx): Expr;
  patternPart(ctx: Ctx): PatternPart;
  /** A bare path pattern (pattern predicates and comprehensions): `(a)-[:R]->(b)`. */
  pathPattern(ctx: Ctx): PatternPart;
  query(ctx: Ctx): Query;
}

/** A name as written: backticks removed and doubled backticks undone. */
export function nameOf(ctx: Ctx): string {
  const text: string = ctx.getText();
  if (text.startsWith('`') && text.endsWith('`') && text.length >= 2) return text.slice(1, -1).replace(/``/g, '`');
  return text;
}

/** The rule node's children that are rule nodes (not tokens). */
export function ruleChildren(ctx: Ctx): Ctx[] {
  return (ctx.children ?? []).filter((c: Ctx) => typeof c.ruleIndex === 'number' && c.symbol === undefined);
}

/** The first child of `ctx` that is a rule node, i.e. which alternative of a rule was taken. */
export function onlyChild(ctx: Ctx): Ctx {
  const kids = ruleChildren(ctx);
  if (!kids.length) throw unsupported(`'${ctx.getText()}'`);
  return kids[0];
}

/** Token texts among the children, upper-cased (operators and keywords between operands). */
export function tokenChildren(ctx: Ctx): string[] {
  return (ctx.children ?? []).filter((c: Ctx) => c.symbol !== undefined).map((c: Ctx) => String(c.getText()).toUpperCase());
}
