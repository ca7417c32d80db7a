import fs from 'node:fs';
import path from 'node:path';
import {
  execute,
  GraphQLError,
  getOperationAST,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type FragmentDefinitionNode,
  type ASTNode,
  visit,
} from 'graphql';
import { getDirective } from '@graphql-tools/utils';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { AppError, asAppError, badRequest, internal } from '../errors.js';
import type { GraphQLContext } from '../graphql/context.js';
import { MSG } from '../messages.js';

/** `<repo>/src/rest/operations`, from `src/rest` (tests) and `dist/rest` (built service). */
export const OPERATIONS_DIR = path.resolve(__dirname, '..', '..', 'src', 'rest', 'operations');

interface Prepared {
  document: DocumentNode;
  compiled?: CompiledQuery;
  /** True when every root field is @public, i.e. the operation needs no caller. */
  isPublic: boolean;
}

/**
 * Runs the named GraphQL operations behind the REST routes, in-process, against the same schema and context as
 * /graphql. Every operation is parsed, validated and compiled with graphql-jit once, at start-up; an operation
 * that fails validation stops the service from starting rather than failing a request later.
 */
export class OperationRunner {
  private readonly ops = new Map<string, Prepared>();

  constructor(
    private readonly schema: GraphQLSchema,
    dir = OPERATIONS_DIR,
  ) {
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.graphql'))
      .sort()
      .map((file) => ({ file, doc: parse(fs.readFileSync(path.join(dir, file), 'utf8')) }));
    // Fragments are shared by every operation file; a name may be defined once.
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const { file, doc } of files) {
      for (const d of doc.definitions) {
        if (d.kind !== Kind.FRAGMENT_DEFINITION) continue;
        if (fragments.has(d.name.value)) throw new Error(`${file}: fragment ${d.name.value} is defined twice`);
        fragments.set(d.name.value, d);
      }
    }
    for (const { file, doc } of files) {
      for (const def of doc.definitions) {
        if (def.kind !== Kind.OPERATION_DEFINITION) continue;
        const name = def.name?.value;
        if (!name) throw new Error(`${file}: every REST operation needs a name`);
        if (this.ops.has(name)) throw new Error(`${file}: operation ${name} is defined twice`);
        const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [def, ...usedFragments(def, fragments)] };
        const errors = validate(schema, document);
        if (errors.length) throw new Error(`${file}: operation ${name} is invalid: ${errors.map((e) => e.message).join('; ')}`);
        const compiled = compileQuery(schema, document, name);
        this.ops.set(name, {
          document,
          compiled: isCompiledQuery(compiled) ? compiled : undefined,
          isPublic: allRootFieldsPublic(schema, def),
        });
      }
    }
  }

  /** Whether the operation may run without a caller (derived from the schema's @public directives). */
  isPublic(name: string): boolean {
    return this.ops.get(name)?.isPublic ?? false;
  }

  has(name: string): boolean {
    return this.ops.has(name);
  }

  get names(): string[] {
    return [...this.ops.keys()];
  }

  /** Executes an operation; returns its data or throws the AppError the result carries. */
  async run<T = Record<string, unknown>>(name: string, variables: Record<string, unknown>, ctx: GraphQLContext): Promise<T> {
    const op = this.ops.get(name);
    if (!op) throw internal('rest', MSG.internal, new Error(`unknown REST operation ${name}`));
    const result: ExecutionResult = op.compiled
      ? await op.compiled.query(undefined, ctx, variables)
      : await execute({ schema: this.schema, document: op.document, contextValue: ctx, variableValues: variables, operationName: name });
    if (result.errors?.length) throw errorOf(result.errors, ctx);
    return result.data as T;
  }
}

/**
 * The status of a failed operation: the first AppError a resolver threw; otherwise a request error (variable
 * coercion, which has no path) is a 400, and anything else is an unexpected failure, logged and masked.
 */
export function errorOf(errors: readonly GraphQLError[], ctx: GraphQLContext): AppError {
  for (const e of errors) {
    const app = asAppError(e);
    if (app) return app;
  }
  const first = errors[0]!;
  // Request errors (variable coercion) have no path; their cause, if any, is GraphQL's own.
  if (!first.path && (!first.originalError || first.originalError instanceof GraphQLError)) return badRequest('request', first.message);
  ctx.log.error({ err: first.originalError ?? first, requestId: ctx.requestId }, 'operation failed unexpectedly');
  return internal('request', MSG.internal);
}

/** The fragments a definition spreads, directly or through other fragments. */
function usedFragments(def: ASTNode, all: Map<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const found = new Map<string, FragmentDefinitionNode>();
  const walk = (node: ASTNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const frag = all.get(name);
        if (frag && !found.has(name)) {
          found.set(name, frag);
          walk(frag);
        }
      },
    });
  walk(def);
  return [...found.values()];
}

function allRootFieldsPublic(schema: GraphQLSchema, def: OperationDefinitionNode): boolean {
  const root = def.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const fields = root?.getFields() ?? {};
  return def.selectionSet.selections.every((sel) => {
    if (sel.kind !== Kind.FIELD) return false;
    if (sel.name.value === '__typename') return true;
    const field = fields[sel.name.value];
    return !!field && !!getDirective(schema, field, 'public')?.length;
  });
}

/** Finds the single operation named `name` in a document (used by tests of the operation files). */
export function operationOf(doc: DocumentNode, name: string) {
  return getOperationAST(doc, name);
}
