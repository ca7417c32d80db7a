import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** RFC 3339 timestamps in and out; resolvers work with Date. */
export const DateTime = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  serialize(value) {
    const d = value instanceof Date ? value : new Date(value as string);
    if (Number.isNaN(d.getTime())) throw new GraphQLError('DateTime cannot represent an invalid date');
    return d.toISOString();
  },
  parseValue(value) {
    return parseDate(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be an RFC 3339 string');
    return parseDate(ast.value);
  },
});

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

function parseDate(value: unknown): Date {
  if (typeof value !== 'string' || !RFC3339.test(value)) throw new GraphQLError('DateTime must be an RFC 3339 string');
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new GraphQLError('DateTime must be a valid date');
  return d;
}

/** Free-form JSON passed through unchanged. */
export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: function literal(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return ast.values.map((v) => literal(v, variables));
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables)]));
      case Kind.VARIABLE:
        return variables ? variables[ast.name.value] : undefined;
      default:
        return undefined;
    }
  },
});
