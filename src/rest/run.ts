import fs from 'node:fs';
import path from 'node:path';
import {
  GraphQLError,
  Kind,
  parse,
  validate,
  visit,
  type ASTNode,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getDirective } from '@graphql-tools/utils';
import { AppError, asAppError, badRequest, internal } from '../errors.js';
import { whenReady, type MaybePromise } from '../maybe-promise.js';
import { MSG } from '../messages.js';

/** `<repo>/src/rest/operations`, from `src/rest` (tests) and `dist/rest` (built service). */
export const OPERATIONS_DIR = path.resolve(__dirname, '..', '..', 'src', 'rest', 'operations');

/** What the schema's directives require of the caller of one root field (src/graphql/directives/auth.ts). */
export interface FieldGuard {
  /** @public: no caller needed. */
  isPublic: boolean;
  /** @clientOnly: users get NOT_FOUND. */
  clientOnly: boolean;
  /** @requires: permissions a user must hold (clients never do). */
  permissions: string[];
}

interface Prepared {
  document: DocumentNode;
  /** The guards of its root fields, in the order they are selected. */
  guards: FieldGuard[];
  /** True when every root field is @public, i.e. the operation needs no caller. */
  isPublic: boolean;
  /** True when a root field is @enterprise: the community edition does not have it. */
  isEnterprise: boolean;
}

/**
 * The GraphQL engine of /graphql for one request (`restEngine` in src/http/graphql.ts): the same plugins
 * (graphql-jit, error masking) and the same context, so REST and GraphQL cannot drift apart.
 */
export type Envelope = () => {
  schema: GraphQLSchema;
  contextFactory: () => unknown;
  execute: (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    contextValue: unknown;
    variableValues: Record<string, unknown>;
    operationName: string;
  }) => unknown;
};

/**
 * Runs the named GraphQL operations behind the REST routes, in-process, through the same envelop pipeline as
 * /graphql. Every operation is parsed and validated once, at start-up (an invalid one stops the service from
 * starting rather than failing a request later); graphql-jit compiles it on first use and keeps it.
 */
export class OperationRunner {
  private readonly ops = new Map<string, Prepared>();

  constructor(schema: GraphQLSchema, dir = OPERATIONS_DIR) {
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
        this.ops.set(name, {
          document,
          guards: rootGuards(schema, def),
          isPublic: rootDirective(schema, def, 'public', true),
          isEnterprise: rootDirective(schema, def, 'enterprise', false),
        });
      }
    }
  }

  /** Whether the operation may run without a caller (derived from the schema's @public directives). */
  isPublic(name: string): boolean {
    return this.ops.get(name)?.isPublic ?? false;
  }

  /** Whether the operation exists only in the enterprise edition (derived from the schema's @enterprise). */
  isEnterprise(name: string): boolean {
    return this.ops.get(name)?.isEnterprise ?? false;
  }

  /** The guards of the operation's root fields, so a route can refuse a caller before it reads any input. */
  guardsOf(name: string): FieldGuard[] {
    return this.ops.get(name)?.guards ?? [];
  }

  has(name: string): boolean {
    return this.ops.has(name);
  }

  get names(): string[] {
    return [...this.ops.keys()];
  }

  /**
   * Executes an operation; returns its data or throws the AppError the result carries, in `context`. An operation
   * whose resolvers all answered from memory comes back as a plain value (graphql-jit then runs synchronously).
   */
  run(name: string, variables: Record<string, unknown>, envelope: Envelope, context: string): MaybePromise<unknown> {
    const op = this.ops.get(name);
    if (!op) throw internal(context, MSG.internal, new Error(`unknown REST operation ${name}`));
    const { schema, contextFactory, execute } = envelope();
    return whenReady(contextFactory() as MaybePromise<unknown>, (contextValue) =>
      whenReady(
        execute({
          schema,
          document: op.document,
          contextValue,
          variableValues: variables,
          operationName: name,
        }) as MaybePromise<ExecutionResult>,
        (result) => {
          if (result.errors?.length) throw errorOf(result.errors, context);
          return result.data;
        },
      ),
    );
  }
}

/**
 * The REST error of a failed operation, in the route's context: the first AppError a resolver threw; an error
 * the masking plugin already logged and replaced keeps its status; a request error (variable coercion, which
 * has no path) is a 400.
 */
export function errorOf(errors: readonly GraphQLError[], context: string): AppError {
  const app = errors.map(asAppError).find((e) => e !== undefined);
  if (app) return app.inContext(context);
  const first = errors[0]!;
  const status = (first.extensions?.http as { status?: number } | undefined)?.status;
  if (!first.path && !status) return badRequest(context, first.message);
  return internal(context, MSG.internal);
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

/** The guard of each root field the operation selects, read from the same directives the schema enforces. */
function rootGuards(schema: GraphQLSchema, def: OperationDefinitionNode): FieldGuard[] {
  const root = def.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const fields = root?.getFields() ?? {};
  return def.selectionSet.selections.flatMap((sel) => {
    const field = sel.kind === Kind.FIELD ? fields[sel.name.value] : undefined;
    if (!field) return [];
    return [
      {
        isPublic: !!getDirective(schema, field, 'public')?.length,
        clientOnly: !!getDirective(schema, field, 'clientOnly')?.length,
        permissions: (getDirective(schema, field, 'requires')?.[0]?.permissions as string[] | undefined) ?? [],
      },
    ];
  });
}

/** Whether every (`all`) or some root field the operation selects carries a directive; `__typename` carries all. */
function rootDirective(schema: GraphQLSchema, def: OperationDefinitionNode, directive: string, all: boolean): boolean {
  const root = def.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const fields = root?.getFields() ?? {};
  const marks = def.selectionSet.selections.map((sel) => {
    if (sel.kind !== Kind.FIELD) throw new Error(`operation ${def.name?.value}: spread fragments below the root fields only`);
    if (sel.name.value === '__typename') return all;
    const field = fields[sel.name.value];
    return !!field && !!getDirective(schema, field, directive)?.length;
  });
  return all ? marks.every(Boolean) : marks.some(Boolean);
}
