import { GraphQLError, GraphQLScalarType } from 'graphql';
import { DateTimeISOResolver, JSONResolver } from 'graphql-scalars';
import { StagedFile } from '../services/datapipe/staged-file.js';

/**
 * RFC 3339 timestamps in and out (graphql-scalars). Its DateTimeISO flavour serialises to a string, which is
 * what the REST reshapes and the generated operation types expect; resolvers work with Date. Named DateTime
 * as the schema declares it.
 */
export const DateTime = new GraphQLScalarType({ ...DateTimeISOResolver.toConfig(), name: 'DateTime' });

/** Free-form JSON passed through unchanged (graphql-scalars). */
export const JSONScalar = JSONResolver;

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
