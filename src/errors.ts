import { GraphQLError } from 'graphql';

/** Stable error codes; every one maps to exactly one HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Longest error message sent back; longer ones (an echoed 10k-character id) are cut. */
export const MAX_MESSAGE = 400;

/**
 * The one error type services throw. It is a GraphQLError so it crosses the GraphQL layer unmasked, and it
 * carries what both transports need: a code, the area (`context` in the REST wrapper) and the HTTP status in
 * `extensions.http`, which graphql-yoga also uses for the status of /graphql responses.
 */
export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly context: string;
  readonly status: number;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, context: string, message: string, opts: { headers?: Record<string, string>; cause?: unknown } = {}) {
    const status = ERROR_STATUS[code];
    // Messages quote inputs; whatever a caller sent, the answer (and the log line) stays short.
    if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE)}… (${message.length} characters)`;
    super(message, {
      originalError: opts.cause instanceof Error ? opts.cause : undefined,
      extensions: { code, context, http: { status, ...(opts.headers ? { headers: opts.headers } : {}) } },
    });
    this.name = 'AppError';
    this.code = code;
    this.context = context;
    this.status = status;
    this.headers = opts.headers;
  }

  /**
   * The same error in a REST route's area. Errors of the schema's own guards name the GraphQL root ('query',
   * 'mutation'), which means nothing to a REST caller; errors that already name an area keep it.
   */
  inContext(context: string): AppError {
    if (this.context !== 'query' && this.context !== 'mutation') return this;
    return new AppError(this.code, context, this.message, { headers: this.headers, cause: this.originalError });
  }
}

export const badRequest = (context: string, message: string) => new AppError('BAD_REQUEST', context, message);
export const unauthorized = (context: string, message: string) => new AppError('UNAUTHENTICATED', context, message);
export const forbidden = (context: string, message: string) => new AppError('FORBIDDEN', context, message);
export const notFound = (context: string, message: string) => new AppError('NOT_FOUND', context, message);
export const conflict = (context: string, message: string) => new AppError('CONFLICT', context, message);
export const tooLarge = (context: string, message: string) => new AppError('PAYLOAD_TOO_LARGE', context, message);
export const unsupportedMedia = (context: string, message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', context, message);
export const unavailable = (context: string, message: string) => new AppError('UNAVAILABLE', context, message);
export const requestTimeout = (context: string, message: string) => new AppError('REQUEST_TIMEOUT', context, message);
export const timeout = (context: string, message: string) => new AppError('TIMEOUT', context, message);
export const internal = (context: string, message: string, cause?: unknown) => new AppError('INTERNAL', context, message, { cause });

/** Finds the AppError in an error or in a GraphQLError that wraps one. */
export function asAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  if (err instanceof GraphQLError && err.originalError) return asAppError(err.originalError);
  return undefined;
}
