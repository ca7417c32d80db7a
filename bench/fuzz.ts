import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import pino from 'pino';
import { signRequest } from '../src/auth/signature';
import { ROUTES } from '../src/rest/routes/index';
import { buildSchema } from '../src/graphql/schema';
import { answerClientErrors } from '../src/http/client-error';
import { createHttpServer } from '../src/http/http-server';
import { benchConfig, benchDatabase, benchService } from './harness';
import { rng } from '../src/generate/json-writer';
import { fuzzGraphQL, fuzzJson, fuzzParam, fuzzQuery, pick, type Rng } from './fuzz-inputs';

/**
 * Sends FUZZ_REQUESTS (default 20,000) generated requests at every route — REST from the route table, GraphQL,
 * /health and unknown paths — as anonymous callers, with a JWT, with a signed request and with junk credentials,
 * mutating path parameters, query strings, headers and bodies (bad %-encoding, NUL, deep nesting, wrong types,
 * huge numbers, bad gzip, hostile GraphQL). Fails when any answer is a 5xx, an error is not in the wrapper
 * (GraphQL errors in GraphQL's own `errors` list), or the server logged at error level.
 */
export async function fuzz(): Promise<Record<string, unknown>> {
  const total = Number(process.env.FUZZ_REQUESTS ?? 20_000);
  const seed = Number(process.env.FUZZ_SEED ?? 9);
  const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 8);

  // Error-level lines are failures too (a caught 500 still logs one); count them and keep a few.
  const errorLines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        if ((JSON.parse(line) as { level: number }).level >= 50) errorLines.push(line.slice(0, 600));
      }
      done();
    },
  });
  const log = pino({ level: 'warn' }, sink);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-fuzz-'));
  const store = await benchDatabase('', log);
  let peakRss = process.memoryUsage().rss;
  const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  try {
    const config = benchConfig({
      logLevel: 'warn',
      adminPassword: 'fuzz-admin-password',
      schedulerPollMs: 0,
      indexCheckMs: 0,
      dataDir,
      maxUploadBytes: 4 * 1024 * 1024,
    });
    const { services, app, stop } = await benchService(store, config, log);
    // The fuzzer draws GraphQL operations from the schema the app serves.
    const schema = buildSchema();
    // Served as `gas serve` serves it (requests made with express's prototypes).
    const httpServer: Server = createHttpServer(app);
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    answerClientErrors(httpServer);
    const server = {
      url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`,
      close: () => new Promise<void>((r) => httpServer.close(() => r())),
    };

    // A fuzzed logout may end the session; log in again (directly, past any login throttling) when it did.
    const login = async (fallback?: string) => {
      try {
        return (await services.identity.login({ loginMethod: 'secret', username: 'admin', secret: config.adminPassword })).sessionToken;
      } catch (err) {
        if (fallback) return fallback;
        throw err;
      }
    };
    let jwt = await login();
    const tokenRes = await fetch(`${server.url}/api/v2/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token_name: 'fuzz' }),
    });
    const token = ((await tokenRes.json()) as { data: { id: string; key: string } }).data;

    const stats = { tried: 0, ok: 0, refused: 0, serverErrors: 0, notWrapped: 0, byStatus: {} as Record<string, number> };
    // GraphQL requests by the operation type their document names (every type, served or not), and their statuses.
    const byOperationType: Record<string, Record<string, number>> = {};
    const samples: string[] = [];
    const slowest: Array<{ ms: number; what: string }> = [];
    const routes = ROUTES.map((r) => ({ method: r.method, path: r.path }));

    const one = async (r: Rng): Promise<void> => {
      let operationType: string | undefined;
      const kind = r() < 0.22 ? 'graphql' : r() < 0.03 ? 'other' : 'rest';
      let method: string;
      let target: string;
      let body: Buffer | undefined;
      const headers: Record<string, string> = {};
      if (kind === 'graphql') {
        method = r() < 0.85 ? 'POST' : 'GET';
        const g = fuzzGraphQL(r, schema);
        const named = /^\s*(query|mutation|subscription)\b/.exec(g.raw ?? g.query)?.[1];
        operationType = named ?? ((g.raw ?? g.query).trim().startsWith('{') ? 'query (shorthand)' : 'other');
        const op = g.operationName !== undefined ? g.operationName : undefined;
        if (method === 'GET') {
          target = `/graphql?query=${encodeURIComponent(g.query)}${g.variables ? `&variables=${encodeURIComponent(g.variables)}` : ''}${op !== undefined ? `&operationName=${encodeURIComponent(op)}` : ''}`;
        } else {
          target = '/graphql';
          // Variables go in as text: they may be deliberately invalid or too deep for JSON.stringify.
          body = Buffer.from(
            g.raw ??
              `{"query":${JSON.stringify(g.query)}${g.variables ? `,"variables":${g.variables}` : ''}${op !== undefined ? `,"operationName":${JSON.stringify(op)}` : ''}}`,
          );
          headers['content-type'] = pick(r, [
            'application/json',
            'application/json',
            'application/graphql+json',
            'text/plain',
            'multipart/form-data; boundary=x',
          ]);
        }
      } else if (kind === 'other') {
        method = pick(r, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
        target = pick(r, ['/health', '/', '/api/v2', '/api/v2/nope', `/api/v2/${fuzzParam(r)}`, '/graphql/x', '/%', '/%00']);
      } else {
        const route = pick(r, routes);
        method = r() < 0.95 ? route.method : pick(r, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);
        const path = route.path.replace(/:(\w+)/g, () => fuzzParam(r));
        target = `${path}${fuzzQuery(r)}`;
        if (method !== 'GET' && method !== 'DELETE' && r() < 0.9) {
          const b = fuzzJson(r);
          body = b.data;
          headers['content-type'] = b.contentType;
          if (b.gzip) {
            body = r() < 0.5 ? zlib.gzipSync(body) : Buffer.concat([Buffer.from([0x1f, 0x8b]), body]);
            headers['content-encoding'] = 'gzip';
          }
        }
      }
      if (r() < 0.1) headers.prefer = pick(r, ['wait=5', 'wait=-1', 'wait=99999999999', 'wait=abc', 'respond-async', 'wait=0.5']);
      if (r() < 0.05) headers['x-file-name'] = encodeURIComponent(fuzzParam(r));
      const auth = r();
      if (auth < 0.3) {
        // anonymous
      } else if (auth < 0.65) {
        headers.authorization = `Bearer ${jwt}`;
      } else if (auth < 0.92) {
        const signedHeaders = signRequest({ tokenId: token.id, tokenKey: token.key, method, target, body });
        for (const [k, v] of Object.entries(signedHeaders)) headers[k.toLowerCase()] = v;
        if (r() < 0.1) headers.signature = 'AAAA' + headers.signature!.slice(4);
      } else {
        headers.authorization = pick(r, [
          'Bearer x.y.z',
          'Bearer',
          'Basic YTpi',
          `apisignature ${fuzzParam(r)}`,
          'bhesignature 00000000-0000-0000-0000-000000000000',
          'a b c',
        ]);
        if (r() < 0.5) headers.requestdate = pick(r, ['2020-01-01T00:00:00Z', 'yesterday', new Date().toISOString()]);
        if (r() < 0.5) headers.signature = pick(r, ['!!!', 'AAAA', '']);
      }

      // HTTP header values are bytes; fetch refuses characters above U+00FF, so those go percent-encoded.
      for (const [k, v] of Object.entries(headers)) if (/[^\x00-\xff]/.test(v)) headers[k] = encodeURIComponent(v);
      stats.tried++;
      const t0 = Date.now();
      let status = 0;
      let text = '';
      let contentType = '';
      try {
        const res = await fetch(`${server.url}${target}`, {
          method,
          headers,
          body: method === 'GET' || method === 'HEAD' || !body ? undefined : new Uint8Array(body),
          redirect: 'manual',
        });
        status = res.status;
        contentType = res.headers.get('content-type') ?? '';
        text = await res.text();
      } catch (err) {
        // The server may end a connection it refused early (413 with Connection: close); anything else is a finding.
        const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
        if (!/ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/i.test(cause))
          samples.push(`${method} ${target.slice(0, 200)} → fetch failed: ${cause}`);
        stats.refused++;
        return;
      }
      stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
      if (kind === 'graphql' && operationType) {
        const t = (byOperationType[operationType] ??= {});
        t[status] = (t[status] ?? 0) + 1;
      }
      const ms = Date.now() - t0;
      if (ms > (slowest[slowest.length - 1]?.ms ?? 0) || slowest.length < 8) {
        slowest.push({ ms, what: `${status} ${method} ${target.slice(0, 120)}` });
        slowest.sort((a, b) => b.ms - a.ms).splice(8);
      }
      if (status === 401 && headers.authorization === `Bearer ${jwt}`) jwt = await login(jwt);
      if (status >= 500) {
        stats.serverErrors++;
        if (samples.length < 20) samples.push(`${status} ${method} ${target.slice(0, 200)} ${text.slice(0, 300)}`);
        return;
      }
      if (status < 400) {
        stats.ok++;
        return;
      }
      stats.refused++;
      if (!wrapped(text, contentType, kind === 'graphql' || target.startsWith('/graphql'))) {
        stats.notWrapped++;
        if (samples.length < 20) samples.push(`unwrapped ${status} ${method} ${target.slice(0, 200)} ${text.slice(0, 300)}`);
      }
    };

    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async (_, w) => {
        const r = rng(seed * 1000 + w);
        while (next < total) {
          if (++next % 1000 === 0 && process.env.FUZZ_PROGRESS) process.stderr.write(`fuzz: ${next}/${total}\n`);
          await one(r);
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    await server.close();
    await stop();
    const result = {
      storage: store.kind,
      seed,
      requests: stats.tried,
      answered_2xx_3xx: stats.ok,
      refused_4xx: stats.refused,
      server_errors_5xx: stats.serverErrors,
      errors_not_in_wrapper: stats.notWrapped,
      error_log_lines: errorLines.length,
      by_status: stats.byStatus,
      graphql_by_operation_type: byOperationType,
      requests_per_second: Math.round(stats.tried / seconds),
      peak_rss_mib: Math.round(peakRss / 1024 / 1024),
      slowest,
      samples: [...samples, ...errorLines.slice(0, 5)],
    };
    if (stats.serverErrors || stats.notWrapped || errorLines.length) {
      process.stdout.write(JSON.stringify(result, null, 1) + '\n');
      throw new Error(
        `fuzz: ${stats.serverErrors} 5xx, ${stats.notWrapped} errors outside the wrapper, ${errorLines.length} error log lines`,
      );
    }
    return result;
  } finally {
    clearInterval(rssTimer);
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The API document's wrapper; on /graphql also GraphQL's own `{ errors: [{ message }] }`. */
function wrapped(text: string, contentType: string, graphql: boolean): boolean {
  if (!/json/i.test(contentType)) return false;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return false;
  }
  const errors = body.errors as Array<Record<string, unknown>> | undefined;
  if (!Array.isArray(errors) || !errors.length || !errors.every((e) => typeof e.message === 'string')) return false;
  if (graphql && !('http_status' in body)) return true;
  return (
    typeof body.http_status === 'number' &&
    typeof body.timestamp === 'string' &&
    typeof body.request_id === 'string' &&
    errors.every((e) => typeof e.context === 'string')
  );
}
