import type { Direction, LabelExpr, NodePattern, PatternPart, RelPattern } from '../model/ast.js';
import { semanticError, unsupported } from '../errors.js';
import { TRAVERSABLE_KINDS } from '../../graph/kinds.js';
import { grammar, positionOf } from '../parse/parser.js';
import { nameOf, type Build, type Ctx } from './context.js';
import { expression, labelExpression, mapLiteral, predicate } from './expressions.js';

/** Stage 2 for patterns: `p = shortestPath((a:User)-[:MemberOf*1..]->(g))` → the query model's PatternPart. */

/** A `pattern` of a MATCH or EXISTS: an optional path variable, an optional selector, the path. */
export function patternPart(b: Build, ctx: Ctx): PatternPart {
  const G = grammar();
  if (ctx instanceof G.ShortestPathExpressionContext) return shortestPath(b, ctx.shortestPathPattern());
  const pathVariable = ctx.variable() ? nameOf(ctx.variable()) : null;
  const anonymous = ctx.anonymousPattern();
  let part: PatternPart;
  if (anonymous.shortestPathPattern()) part = shortestPath(b, anonymous.shortestPathPattern());
  else part = element(b, anonymous.patternElement());
  const selector = ctx.selector();
  if (selector) {
    if (selector instanceof G.AnyShortestPathContext && !selector.nonNegativeIntegerSpecification?.()) part.shortest = 'shortest';
    else if (selector instanceof G.AllShortestPathContext) part.shortest = 'all';
    else if (selector instanceof G.AllPathContext) part.shortest = null;
    else throw unsupported(`The path selector ${String(selector.getText())}`);
  }
  part.pathVariable = pathVariable;
  return part;
}

function shortestPath(b: Build, ctx: Ctx): PatternPart {
  const part = element(b, ctx.patternElement());
  if (part.rels.length !== 1) {
    throw semanticError(
      'InvalidShortestPath',
      'shortestPath and allShortestPaths need a pattern of exactly one relationship.',
      positionOf(ctx),
    );
  }
  part.shortest = ctx.ALL_SHORTEST_PATHS() ? 'all' : 'shortest';
  return part;
}

/** `pathPatternNonEmpty` (pattern predicates and comprehensions) and `patternElement` both read as node, rel, node… */
export function element(b: Build, ctx: Ctx): PatternPart {
  const nodes: NodePattern[] = [];
  const rels: RelPattern[] = [];
  for (const child of ctx.children ?? []) {
    const name = grammar().CypherParser.ruleNames[child.ruleIndex];
    if (name === 'nodePattern') {
      if (nodes.length > rels.length) throw unsupported('Juxtaposed node patterns ((a)(b))');
      nodes.push(node(b, child));
    } else if (name === 'relationshipPattern') rels.push(relationship(b, child));
    else if (name === 'quantifier') throw unsupported('Quantified path patterns ({m,n}, +)');
    else if (name === 'parenthesizedPath') throw unsupported('Parenthesized path patterns');
  }
  return { pathVariable: null, shortest: null, nodes, rels };
}

function node(b: Build, ctx: Ctx): NodePattern {
  return {
    variable: ctx.variable() ? nameOf(ctx.variable()) : null,
    labels: ctx.labelExpression() ? labelExpression(ctx.labelExpression()) : null,
    properties: properties(b, ctx.properties()),
    where: ctx.WHERE() ? predicate(expression(b, ctx.expression())) : null,
  };
}

function properties(b: Build, ctx: Ctx | null) {
  if (!ctx) return null;
  if (ctx.map()) return mapLiteral(b, ctx.map());
  return { kind: 'param' as const, name: nameOf(ctx.parameter().parameterName()) };
}

function relationship(b: Build, ctx: Ctx): RelPattern {
  const left = !!ctx.leftArrow();
  const right = !!ctx.rightArrow();
  const direction: Direction = left && !right ? 'in' : right && !left ? 'out' : 'both';
  const types = ctx.labelExpression() ? relTypes(labelExpression(ctx.labelExpression())) : [];
  return {
    variable: ctx.variable() ? nameOf(ctx.variable()) : null,
    types,
    direction,
    range: ctx.pathLength() ? range(ctx.pathLength()) : null,
    properties: properties(b, ctx.properties()),
    where: ctx.WHERE() ? predicate(expression(b, ctx.expression())) : null,
  };
}

/** A relationship's type expression must be one type or alternatives (`:A|B`, `:A|:B`). */
function relTypes(e: LabelExpr): string[] {
  let names: string[];
  if (e.kind === 'name') names = [e.name];
  else if (e.kind === 'or' && e.items.every((i) => i.kind === 'name')) names = e.items.map((i) => (i as { name: string }).name);
  else throw unsupported('Relationship type expressions other than alternatives (:A|B)');
  return [...new Set(names.flatMap((n) => COMPOSITE_KINDS[n] ?? [n]))];
}

/** BloodHound's pathfinding kinds of each platform: Azure's are the AZ kinds (and SyncedToADUser), AD's the rest. */
const AZ_PATHS = [...TRAVERSABLE_KINDS].filter((k) => k.startsWith('AZ') || k === 'SyncedToADUser');
const AD_PATHS = [...TRAVERSABLE_KINDS].filter((k) => !AZ_PATHS.includes(k));

/**
 * BloodHound's shortcut relationship types, expanded as its Cypher frontend expands them: to the pathfinding
 * relationships of AD, of Azure, or of both; alternatives beside them are kept.
 */
export const COMPOSITE_KINDS: Readonly<Record<string, readonly string[]>> = {
  AD_ATTACK_PATHS: AD_PATHS,
  AZ_ATTACK_PATHS: AZ_PATHS,
  ALL_ATTACK_PATHS: [...AD_PATHS, ...AZ_PATHS],
};

function range(ctx: Ctx): { min: number; max: number | null } {
  if (ctx._single) {
    const n = Number(ctx._single.text);
    return { min: n, max: n };
  }
  const min = ctx._from_ ? Number(ctx._from_.text) : 1;
  const max = ctx._to ? Number(ctx._to.text) : null;
  if (!ctx.DOTDOT() && !ctx._from_) return { min: 1, max: null };
  return { min, max };
}
