import { EnvelopArmor } from '@escape.tech/graphql-armor';
import type { Plugin } from 'graphql-yoga';
import { GraphQLError, visit, type ASTVisitor, type DocumentNode, type ValidationContext, type ValidationRule } from 'graphql';
import type { Session } from '../auth/session.js';
import { badRequest, unauthorized } from '../errors.js';

/**
 * Budgets for one GraphQL document. The token limit applies while parsing (a 5,000-brace or 20,000-alias
 * document stops after `maxTokens` tokens); the others are validation rules that look at the whole operation on
 * entering it, so they refuse before graphql-js's own rules walk the selections and long before graphql-jit
 * compiles anything.
 */
export const GRAPHQL_LIMITS = {
  maxTokens: 4000,
  maxAliases: 30,
  maxDepth: 12,
  maxDirectives: 50,
  maxCost: 5000,
  /** Brackets ({, (, [) open at once in the document text; checked before parsing, which recurses per level. */
  maxNesting: 64,
} as const;

/**
 * The deepest bracket nesting in a GraphQL document, skipping strings, block strings and comments. graphql-js
 * parses recursively, so a few thousand nested braces overflow the stack before the token limit is reached.
 */
export function bracketNesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === '"') {
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        i = end < 0 ? text.length : end + 2;
      } else {
        for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      }
    } else if (c === '{' || c === '(' || c === '[') {
      if (++depth > max) max = depth;
    } else if (c === '}' || c === ')' || c === ']') {
      depth--;
    }
  }
  return max;
}

/** Mutations that check a password or a signed assertion; each is costly by design, so one per request. */
const CREDENTIAL_FIELDS = new Set(['login', 'samlCallback']);

/** Refuses an operation that asks for more than one credential check (`a: login(…) b: login(…)`). */
export const oneCredentialCheck: ValidationRule = (context: ValidationContext): ASTVisitor => {
  let seen = 0;
  return {
    Field(node) {
      const parent = context.getParentType();
      if (!parent || parent !== context.getSchema().getMutationType()) return;
      if (CREDENTIAL_FIELDS.has(node.name.value) && ++seen === 2)
        throw badRequest('graphql', `Only one ${node.name.value} (or other credential check) is allowed per request.`);
    },
  };
};

/**
 * Refuses an operation of a type the schema has no root for (subscriptions: nothing here streams). graphql-js's own
 * rules do not look at that, and graphql-jit then throws while compiling, which answered 500.
 */
export const servedOperationTypes: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(node) {
    const schema = context.getSchema();
    const root =
      node.operation === 'query'
        ? schema.getQueryType()
        : node.operation === 'mutation'
          ? schema.getMutationType()
          : schema.getSubscriptionType();
    if (!root) throw badRequest('graphql', `${node.operation} operations are not served here; send a query or a mutation.`);
  },
});

/** True when the document asks for the schema (`__schema`, `__type`); `__typename` is ordinary. */
export function asksForSchema(doc: DocumentNode): boolean {
  let found = false;
  visit(doc, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') found = true;
    },
  });
  return found;
}

interface YogaServerContext {
  req?: { session?: Session | null };
}

/**
 * The schema is described to signed-in callers only. Checked at execution, after validation, because the
 * validation cache is shared by every caller and so cannot depend on who asks.
 */
export function introspectionForCallersOnly(): Plugin<YogaServerContext> {
  return {
    onExecute({ args }) {
      if ((args.contextValue as YogaServerContext).req?.session) return;
      if (asksForSchema(args.document)) throw unauthorized('graphql', 'Introspection is only available to authenticated callers.');
    },
  };
}

/** Refuses a string literal holding a NUL character, which PostgreSQL cannot store in text. */
export const noNulInLiterals: ValidationRule = (): ASTVisitor => ({
  StringValue(node) {
    if (node.value.includes('\u0000')) throw badRequest('graphql', 'String values must not contain NUL characters.');
  },
});

/** graphql-armor's limits plus ours, as envelop plugins for graphql-yoga. */
export function graphqlLimitPlugins(): Plugin[] {
  // Armor's own errors would be answered 200 by yoga; ours carry 400 (AppError's http extension).
  const refuse = {
    propagateOnRejection: false,
    onReject: [
      (_ctx: unknown, err: GraphQLError) => {
        throw badRequest('graphql', err.message.replace(/^Syntax Error: /, ''));
      },
    ],
  };
  const { plugins } = new EnvelopArmor({
    maxTokens: { n: GRAPHQL_LIMITS.maxTokens, ...refuse },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases, ...refuse },
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ...refuse },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives, ...refuse },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost, ...refuse },
    blockFieldSuggestion: { enabled: true },
  }).protect();
  const extraRules: Plugin = {
    onValidate({ addValidationRule }) {
      addValidationRule(servedOperationTypes);
      addValidationRule(oneCredentialCheck);
      addValidationRule(noNulInLiterals);
    },
  };
  return [...(plugins as Plugin[]), extraRules, introspectionForCallersOnly() as Plugin];
}
