import type { Value } from '../execute/values.js';

/**
 * The query model: what the frontend makes of the parse tree and every later stage reads. Plain data, no parse-tree
 * objects, so analysis, planning and execution can be read and tested without the parser.
 */

export type BinaryOp =
  | 'or'
  | 'xor'
  | 'and'
  | '='
  | '<>'
  | '<'
  | '>'
  | '<='
  | '>='
  | '=~'
  | 'startsWith'
  | 'endsWith'
  | 'contains'
  | 'in'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '^';

/** A label or relationship-type expression: `:A:B` is an `and`, `:A|B` an `or`, `%` any label. */
export type LabelExpr =
  | { kind: 'name'; name: string }
  | { kind: 'and'; items: LabelExpr[] }
  | { kind: 'or'; items: LabelExpr[] }
  | { kind: 'not'; item: LabelExpr }
  | { kind: 'any' };

export type Expr =
  | { kind: 'lit'; value: Value }
  | { kind: 'param'; name: string }
  | { kind: 'var'; name: string }
  | { kind: 'prop'; target: Expr; key: string }
  | { kind: 'index'; target: Expr; index: Expr }
  | { kind: 'slice'; target: Expr; from: Expr | null; to: Expr | null }
  | { kind: 'list'; items: Expr[] }
  | { kind: 'map'; entries: [string, Expr][] }
  | { kind: 'not'; arg: Expr }
  | { kind: 'neg'; arg: Expr }
  | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
  | { kind: 'isNull'; arg: Expr; negated: boolean }
  | { kind: 'hasLabels'; arg: Expr; labels: LabelExpr }
  | { kind: 'call'; name: string; args: Expr[]; distinct: boolean }
  | { kind: 'countStar' }
  | { kind: 'case'; subject: Expr | null; whens: { when: Expr; then: Expr }[]; otherwise: Expr | null }
  | { kind: 'listComp'; variable: string; list: Expr; where: Expr | null; map: Expr | null }
  | { kind: 'quantifier'; quantifier: 'all' | 'any' | 'none' | 'single'; variable: string; list: Expr; where: Expr | null }
  | { kind: 'reduce'; acc: string; init: Expr; variable: string; list: Expr; expr: Expr }
  | { kind: 'patternComp'; pattern: PatternPart; where: Expr | null; map: Expr }
  /** A pattern used as an expression: the list of its paths (a predicate where a boolean is wanted). */
  | { kind: 'pattern'; pattern: PatternPart }
  /** `predicate`: written as a bare pattern in a condition (`WHERE (a)-->(b)`), which may not introduce variables. */
  | { kind: 'exists'; patterns: PatternPart[]; where: Expr | null; query: Query | null; predicate?: boolean }
  | { kind: 'countSubquery'; patterns: PatternPart[]; where: Expr | null; query: Query | null }
  | { kind: 'mapProjection'; variable: string; items: MapProjectionItem[] };

export type MapProjectionItem =
  { kind: 'entry'; key: string; expr: Expr } | { kind: 'property'; key: string } | { kind: 'variable'; name: string } | { kind: 'all' };

export interface NodePattern {
  variable: string | null;
  labels: LabelExpr | null;
  /** A map literal or a parameter whose entries must all equal the node's properties. */
  properties: Expr | null;
  where: Expr | null;
}

export type Direction = 'out' | 'in' | 'both';

export interface RelPattern {
  variable: string | null;
  /** Allowed types (any when empty). */
  types: string[];
  direction: Direction;
  /** Hops for a variable-length relationship (`*1..3`); null for a single hop. max null = unbounded. */
  range: { min: number; max: number | null } | null;
  properties: Expr | null;
  where: Expr | null;
}

/** A path pattern: nodes[i] -rels[i]- nodes[i + 1]. */
export interface PatternPart {
  pathVariable: string | null;
  shortest: 'shortest' | 'all' | null;
  nodes: NodePattern[];
  rels: RelPattern[];
}

export interface ProjectionItem {
  expr: Expr;
  /** The column name: the alias, or the expression's text as written. */
  name: string;
  aliased: boolean;
}

export interface OrderItem {
  expr: Expr;
  descending: boolean;
}

export interface Projection {
  distinct: boolean;
  /** `RETURN *` / `WITH *`: every variable in scope, before the listed items. */
  star: boolean;
  items: ProjectionItem[];
  order: OrderItem[];
  skip: Expr | null;
  limit: Expr | null;
}

export type Clause =
  | { kind: 'match'; optional: boolean; patterns: PatternPart[]; where: Expr | null }
  | { kind: 'unwind'; expr: Expr; variable: string }
  | { kind: 'with'; projection: Projection; where: Expr | null }
  | { kind: 'return'; projection: Projection }
  /** Only in queries prepared for a writable test graph (the TCK's set-up): the service's queries never write. */
  | { kind: 'create'; patterns: PatternPart[] };

export interface SingleQuery {
  clauses: Clause[];
}

/** One or more single queries joined by UNION (all: keep duplicates). */
export interface Query {
  parts: SingleQuery[];
  unionAll: boolean;
}
