import pino, { type Logger } from 'pino';

export type { Logger };

const REDACTED = '[Redacted]';

/** Request headers that carry credentials. RequestDate stays: it is not secret and helps diagnose clock skew. */
const SECRET_HEADERS = ['authorization', 'signature', 'cookie', 'proxy-authorization', 'x-api-key'];
/** Query parameter names that may hold a secret (tokens, keys, passwords, SAML payloads). */
const SECRET_PARAM = /token|key|secret|pass|session|jwt|signature|auth|code|saml|relaystate|cookie|credential/i;

/** A URL with the values of secret-looking query parameters replaced; the path and other parameters stay readable. */
export function redactUrl(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent, its value hidden all the same.
        return `${name}=${REDACTED}`;
      }
      return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

function redactHeaders(headers: unknown): unknown {
  if (!headers || typeof headers !== 'object') return headers;
  const out: Record<string, unknown> = { ...(headers as Record<string, unknown>) };
  for (const name of Object.keys(out)) if (SECRET_HEADERS.includes(name.toLowerCase())) out[name] = REDACTED;
  if ('set-cookie' in out) out['set-cookie'] = REDACTED;
  return out;
}

/** Request headers an access log line keeps: an allowlist, so a credential header nobody thought of never lands. */
const LOGGED_REQUEST_HEADERS = ['host', 'user-agent', 'content-type', 'content-length', 'requestdate', 'x-request-id', 'prefer'];
const LOGGED_RESPONSE_HEADERS = ['content-type', 'content-length'];

function pick(headers: unknown, names: readonly string[]): Record<string, unknown> | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  return pickEach((name) => (headers as Record<string, unknown>)[name], names);
}

function pickEach(get: (name: string) => unknown, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const v = get(name);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/**
 * Serializers for the access log (http/access-log.ts): the request line, the caller's address and the
 * allowlisted headers, with secret query values hidden. Credential headers are never part of a line, at any level
 * (copying and redacting every header of every request was ~10 % of a signed lookup's CPU).
 */
export const httpLogSerializers = {
  req: (req: Record<string, unknown>) => ({
    id: req.id,
    method: req.method,
    url: redactUrl(req.url),
    remoteAddress: req.remoteAddress,
    headers: pick(req.headers, LOGGED_REQUEST_HEADERS),
  }),
  /** Reads only the logged headers of a response (getHeaders() would copy all of them, security headers included). */
  res: (res: { statusCode: number; getHeader(name: string): unknown }) => ({
    statusCode: res.statusCode,
    headers: pickEach((name) => res.getHeader(name), LOGGED_RESPONSE_HEADERS),
  }),
};

/**
 * Log lines waiting for stdout are held in memory; past this many bytes new lines are dropped (and counted) rather
 * than buffered without bound. A stalled log reader under a request flood otherwise grew the process by ~1.5 KiB
 * per request.
 */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

/**
 * Lines are written once this many bytes wait, or every LOG_FLUSH_MS: a write per line was a system call and a
 * callback per request (~3 % of a signed look-up's CPU). pino flushes what waits when the process exits.
 */
const LOG_WRITE_BYTES = 4096;
const LOG_FLUSH_MS = 200;

/** Stdout through an asynchronous buffer of at most LOG_BUFFER_BYTES; what does not fit is dropped. */
function boundedStdout(): pino.DestinationStream {
  const out = pino.destination({
    dest: 1,
    sync: false,
    maxLength: LOG_BUFFER_BYTES,
    minLength: LOG_WRITE_BYTES,
    periodicFlush: LOG_FLUSH_MS,
  });
  let dropped = 0;
  out.on('drop', () => {
    if (dropped++ === 0) process.stderr.write('gas: log output is not being read fast enough; dropping log lines\n');
  });
  return out;
}

/** Stderr, written as each line comes: a one-off command's stdout is its result, and it logs only problems. */
export const commandLogDestination = (): pino.DestinationStream => pino.destination({ dest: 2, sync: true });

/**
 * One structured logger per process; modules take child loggers with a `module` binding. Redaction here covers
 * anything logged outside the HTTP log too (an `url`, a `headers` object, a `req`).
 */
export function createLogger(level: string, destination: pino.DestinationStream = boundedStdout()): Logger {
  return pino(
    {
      level,
      base: { service: 'gas' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { url: redactUrl, headers: redactHeaders },
      redact: {
        paths: [
          ...SECRET_HEADERS.flatMap((h) => [`req.headers.${h}`, `headers.${h}`, `request.headers.${h}`]),
          'res.headers["set-cookie"]',
          'headers["set-cookie"]',
          'sessionToken',
          'session_token',
          'password',
          'secret',
          '*.password',
          '*.secret',
          '*.sessionToken',
        ],
        censor: REDACTED,
      },
    },
    destination,
  );
}
