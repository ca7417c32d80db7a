import type { Clause, Expr, OrderItem, Projection, Query, SingleQuery } from '../model/ast.js';
import { readOnly, semanticError, unsupported } from '../errors.js';
import { positionOf, sourceOf, type Parsed } from '../parse/parser.js';
import { nameOf, type Build, type Ctx } from './context.js';
import { expression, predicate } from './expressions.js';
import { element, patternPart } from './patterns.js';

/**
 * Stage 2: the parse tree → the query model. Refuses here what the grammar accepts but the engine does not run:
 * writing clauses (read-only), administration commands, Cypher 25's new clauses, procedures.
 */
export function toModel(parsed: Parsed, opts: { testWrites?: boolean } = {}): Query {
  const b: Build = {
    testWrites: opts.testWrites === true,
    text: parsed.text,
    expr: (ctx) => expression(b, ctx),
    patternPart: (ctx) => patternPart(b, ctx),
    pathPattern: (ctx) => element(b, ctx),
    query: (ctx) => regularQuery(b, ctx),
  };
  const statements: Ctx[] = parsed.tree.statementOrCommand_list();
  if (statements.length !== 1) throw unsupported('More than one statement in a query');
  const statement = statements[0];
  if (statement.consoleCommand()) throw unsupported('Console commands (:param, :use, …)');
  const pre = statement.preparsedStatement();
  for (const option of pre.preparserOption_list()) {
    const text = String(option.getText()).toUpperCase();
    if (text === 'EXPLAIN' || text === 'PROFILE') throw unsupported(text);
    // CYPHER 5 / CYPHER 25 and options: the one language this engine speaks either way.
  }
  const st = pre.statement();
  if (st.command()) throw command(st.command());
  return regularQuery(b, st.regularQuery());
}

function command(ctx: Ctx): Error {
  const text = String(ctx.getText()).toUpperCase();
  if (/^(CREATE|DROP|ALTER|RENAME|GRANT|DENY|REVOKE|START|STOP|ENABLE|DEALLOCATE|REALLOCATE|TERMINATE)/.test(text)) {
    return readOnly('Administration commands');
  }
  return unsupported('Administration commands (SHOW …)');
}

function regularQuery(b: Build, ctx: Ctx): Query {
  if (ctx.when()) throw unsupported('WHEN … THEN conditional queries');
  const union = ctx.union();
  const parts: SingleQuery[] = union.singleQuery_list().map((q: Ctx) => singleQuery(b, q));
  const all = (union.ALL_list?.() ?? []).length;
  const unions = (union.UNION_list?.() ?? []).length;
  if (all && all !== unions) {
    throw semanticError('InvalidClauseComposition', 'UNION and UNION ALL cannot be mixed in one query.', positionOf(union));
  }
  return { parts, unionAll: unions > 0 && all === unions };
}

function singleQuery(b: Build, ctx: Ctx): SingleQuery {
  if (ctx.regularQuery?.()) throw unsupported('Nested queries ({ … }) and USE');
  return { clauses: ctx.clause_list().map((c: Ctx) => clause(b, c)) };
}

function clause(b: Build, ctx: Ctx): Clause {
  if (ctx.matchClause()) return match(b, ctx.matchClause());
  if (ctx.returnClause()) return { kind: 'return', projection: projection(b, ctx.returnClause().returnBody()) };
  if (ctx.withClause()) {
    const w = ctx.withClause();
    return {
      kind: 'with',
      projection: projection(b, w.returnBody()),
      where: w.whereClause() ? predicate(expression(b, w.whereClause().expression())) : null,
    };
  }
  if (ctx.unwindClause()) {
    const u = ctx.unwindClause();
    return { kind: 'unwind', expr: expression(b, u.expression()), variable: nameOf(u.variable()) };
  }
  if (ctx.createClause() && b.testWrites) {
    return {
      kind: 'create',
      patterns: ctx
        .createClause()
        .patternList()
        .pattern_list()
        .map((p: Ctx) => patternPart(b, p)),
    };
  }
  if (ctx.createClause() || ctx.insertClause()) throw readOnly('CREATE');
  if (ctx.mergeClause()) throw readOnly('MERGE');
  if (ctx.setClause()) throw readOnly('SET');
  if (ctx.deleteClause()) throw readOnly('DELETE');
  if (ctx.removeClause()) throw readOnly('REMOVE');
  if (ctx.foreachClause()) throw readOnly('FOREACH');
  if (ctx.loadCSVClause()) throw readOnly('LOAD CSV');
  if (ctx.callClause()) throw procedureCall(ctx.callClause());
  if (ctx.subqueryClause()) throw unsupported('CALL { … } subqueries');
  if (ctx.useClause()) throw unsupported('USE');
  if (ctx.finishClause()) throw unsupported('FINISH');
  if (ctx.filterClause()) throw unsupported('FILTER');
  if (ctx.letClause()) throw unsupported('LET');
  throw unsupported('ORDER BY, SKIP or LIMIT as a clause of their own (use them in WITH or RETURN)');
}

/** Procedures whose names say they write; any other is refused as unsupported (none are served). */
const WRITING_PROCEDURE = /(^|\.)(create|merge|delete|set|remove|refactor|periodic|load|import|drop|add|clear|rename|write)/i;

function procedureCall(ctx: Ctx): Error {
  const name = String(ctx.procedureName().getText());
  if (WRITING_PROCEDURE.test(name)) return readOnly(`CALL ${name}`);
  return unsupported(`CALL ${name} (procedures)`);
}

function match(b: Build, ctx: Ctx): Clause {
  if (ctx.matchMode()) throw unsupported('Match modes (REPEATABLE ELEMENTS, DIFFERENT RELATIONSHIPS)');
  if (ctx.hint_list().length) throw unsupported('USING hints');
  return {
    kind: 'match',
    optional: !!ctx.OPTIONAL(),
    patterns: ctx
      .patternList()
      .pattern_list()
      .map((p: Ctx) => patternPart(b, p)),
    where: ctx.whereClause() ? predicate(expression(b, ctx.whereClause().expression())) : null,
  };
}

function projection(b: Build, ctx: Ctx): Projection {
  const items = ctx.returnItems();
  const order: OrderItem[] = ctx.orderBy()
    ? ctx
        .orderBy()
        .orderItem_list()
        .map((o: Ctx) => ({ expr: expression(b, o.expression()), descending: !!o.descToken() }))
    : [];
  const skipLimit = (c: Ctx): Expr | null => (c ? expression(b, c.expression()) : null);
  return {
    distinct: !!ctx.DISTINCT(),
    star: !!items.TIMES(),
    items: items.returnItem_list().map((item: Ctx) => {
      const alias = item.variable();
      return {
        expr: expression(b, item.expression()),
        name: alias ? nameOf(alias) : sourceOf(b.text, item.expression()),
        aliased: !!alias,
      };
    }),
    order,
    skip: skipLimit(ctx.skip()),
    limit: skipLimit(ctx.limit()),
  };
}
