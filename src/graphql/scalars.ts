import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { StagedFile } from '../services/staged-file.js';

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

/** A File from a multipart request (yoga's own File implementation). JSON values never have methods. */
function isFileLike(v: unknown): v is File {
  const f = v as { stream?: unknown; arrayBuffer?: unknown; name?: unknown };
  return (
    !!v && typeof v === 'object' && typeof f.stream === 'function' && typeof f.arrayBuffer === 'function' && typeof f.name === 'string'
  );
}

/**
 * Uploaded files: a StagedFile the REST layer spooled to disk, or a File from a GraphQL multipart request.
 * Plain JSON values are refused, so a client can never make the server read a path it names.
 */
export const Upload = new GraphQLScalarType({
  name: 'Upload',
  serialize: () => {
    throw new GraphQLError('Upload is an input-only scalar');
  },
  parseValue(value) {
    if (value instanceof StagedFile || isFileLike(value)) return value;
    throw new GraphQLError('Upload must be a file sent as a multipart request');
  },
  parseLiteral() {
    throw new GraphQLError('Upload must be a file sent as a multipart request');
  },
});
