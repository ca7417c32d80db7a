import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type net from 'node:net';
import { signRequest } from '../../src/auth/signature';
import { apiToken, useListening, useTestApp, type ApiToken } from '../helpers/app';
import { idleConnection, rawExchange, rawJson } from '../helpers/raw-http';

const KiB = 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * What one client can hold of the server, over real sockets: bodies are read only once the headers said who is
 * calling (and bounded by it), slow headers and bodies are cut with 408 and the connection closed, and one client
 * address can hold only so many connections and so many body bytes in memory.
 */
describe('slow and greedy clients', () => {
  const t = useTestApp({
    maxAnonymousBodyBytes: 16 * KiB,
    unverifiedBodyMemoryBytes: 16 * KiB,
    maxJsonBodyBytes: 1024 * KiB,
    maxConnectionsPerAddress: 4,
    maxBodyBytesInFlightPerAddress: 1024 * KiB,
    timeouts: { headersMs: 1000, bodyMs: 1500, uploadIdleMs: 1500, requestMs: 60_000, keepAliveMs: 5000 },
  });
  const server = useListening(t);
  let token: ApiToken;
  beforeAll(async () => {
    token = await apiToken(t.app, t.adminJwt);
  });
  const incoming = () => {
    const dir = path.join(t.config.dataDir, 'uploads', 'incoming');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const post = (target: string, headers: Record<string, string>, declared: number) =>
    `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;

  it('refuses an anonymous body declared over its bound at the headers, and closes the connection', async () => {
    const res = await rawExchange(server.port, post('/graphql', {}, 9.5 * 1024 * KiB), { localAddress: '127.0.0.11', waitMs: 3000 });
    expect(res.status).toBe(413);
    expect(res.closed).toBe(true);
    expect(rawJson(res.text)?.errors).toEqual([{ context: 'middleware', message: expect.stringMatching(/limit 16384 bytes/) }]);
  });

  it('answers a bad JWT with 401 before its body, and closes the connection', async () => {
    const res = await rawExchange(server.port, post('/graphql', { Authorization: 'Bearer x.y.z' }, 512 * KiB), {
      localAddress: '127.0.0.12',
      waitMs: 3000,
    });
    expect(res.status).toBe(401);
    expect(res.closed).toBe(true);
  });

  it('reads a larger body for a caller the headers authenticated', async () => {
    const body = JSON.stringify({ query: '{ serviceInfo { version } }', variables: { pad: 'x'.repeat(200 * KiB) } });
    const anonymous = await fetch(`http://127.0.0.1:${server.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).catch(() => undefined);
    expect(anonymous === undefined || anonymous.status === 413).toBe(true);
    const authed = await fetch(`http://127.0.0.1:${server.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminJwt}` },
      body,
    });
    expect(authed.status).toBe(200);
  });

  it('keeps a signed body past its in-memory budget on disk until the signature matched, and removes it either way', async () => {
    const target = '/api/v2/custom-nodes';
    const body = Buffer.from(
      JSON.stringify({ custom_types: { Padded: { icon: { type: 'font-awesome', name: 'x' } } }, pad: 'x'.repeat(100 * KiB) }),
    );
    const headers = signRequest({ tokenId: token.id, tokenKey: token.key, method: 'POST', target, body });
    // Half the body, then a pause: the part past 16 KiB is already waiting in a file.
    const pending = rawExchange(server.port, Buffer.concat([Buffer.from(post(target, headers, body.length)), body.subarray(0, 50 * KiB)]), {
      localAddress: '127.0.0.13',
      then: [{ afterMs: 500, data: body.subarray(50 * KiB) }],
      waitMs: 3000,
    });
    await sleep(300);
    expect(incoming().filter((f) => f.startsWith('body-'))).toHaveLength(1);
    const res = await pending;
    expect(res.status).toBe(201);
    expect(incoming().filter((f) => f.startsWith('body-'))).toEqual([]);

    const forged = { ...headers, Signature: signRequest({ tokenId: token.id, tokenKey: 'wrong', method: 'POST', target, body }).Signature };
    const refused = await rawExchange(server.port, Buffer.concat([Buffer.from(post(target, forged, body.length)), body]), {
      localAddress: '127.0.0.13',
      waitMs: 3000,
    });
    expect(refused.status).toBe(401);
    expect(rawJson(refused.text)?.errors).toEqual([{ context: 'auth', message: expect.stringMatching(/digest mismatch/) }]);
    expect(incoming().filter((f) => f.startsWith('body-'))).toEqual([]);
  });

  it('authenticates signed bodies of every collector shape: chunked, gzip-encoded, past the in-memory budget', async () => {
    const target = '/api/v2/custom-nodes';
    const json = Buffer.from(
      JSON.stringify({ custom_types: { Shaped: { icon: { type: 'font-awesome', name: 'y' } } }, pad: 'z'.repeat(40 * KiB) }),
    );
    // Random padding, so the compressed body too is larger than what stays in memory before the signature is checked.
    const gzipped = zlib.gzipSync(
      Buffer.from(
        JSON.stringify({
          custom_types: { Shaped: { icon: { type: 'font-awesome', name: 'y' } } },
          pad: crypto.randomBytes(30 * KiB).toString('base64'),
        }),
      ),
    );
    for (const [name, body, extra] of [
      ['chunked', json, 'Transfer-Encoding: chunked\r\n'],
      ['gzip, chunked', gzipped, 'Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n'],
      ['gzip', gzipped, `Content-Length: ${gzipped.length}\r\nContent-Encoding: gzip\r\n`],
    ] as const) {
      const headers = signRequest({
        tokenId: token.id,
        tokenKey: token.key,
        method: 'DELETE',
        target: `${target}/Shaped`,
        body: undefined,
      });
      await fetch(`http://127.0.0.1:${server.port}${target}/Shaped`, { method: 'DELETE', headers });
      const signedHeaders = signRequest({ tokenId: token.id, tokenKey: token.key, method: 'POST', target, body });
      const head =
        `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n${extra}` +
        Object.entries(signedHeaders)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('') +
        '\r\n';
      const chunked = extra.includes('chunked');
      const pieces = chunked
        ? [body.subarray(0, 1000), body.subarray(1000, 30 * KiB), body.subarray(30 * KiB)]
            .filter((p) => p.length > 0)
            .map((p) => Buffer.concat([Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]))
        : [body];
      const res = await rawExchange(server.port, Buffer.concat([Buffer.from(head), ...pieces, Buffer.from(chunked ? '0\r\n\r\n' : '')]), {
        localAddress: '127.0.0.18',
      });
      expect([name, res.status, res.status === 201 ? '' : res.text.slice(-300)]).toEqual([name, 201, '']);
    }
  });

  it('cuts headers that do not arrive in time with 408 in the wrapper, and closes the connection', async () => {
    const res = await rawExchange(server.port, 'GET /health HTTP/1.1\r\nHost: x\r\n', { localAddress: '127.0.0.14', waitMs: 5000 });
    expect(res.status).toBe(408);
    // Answered and closed within the exchange's 5 s, where node's default waits 60 s for headers.
    expect(res.closed).toBe(true);
    expect(rawJson(res.text)?.http_status).toBe(408);
  });

  it('cuts a body that does not arrive in time with 408, not 504, and closes the connection', async () => {
    const res = await rawExchange(server.port, post('/api/v2/login', {}, 100) + '{"login_', { localAddress: '127.0.0.15', waitMs: 5000 });
    expect(res.status).toBe(408);
    expect(res.closed).toBe(true);
    expect(rawJson(res.text)?.errors).toEqual([
      { context: 'middleware', message: expect.stringMatching(/did not arrive within 2 seconds/) },
    ]);
  });

  it('answers 408 when the request deadline (Prefer: wait) passes while the body is still arriving', async () => {
    const res = await rawExchange(server.port, post('/graphql', { Prefer: 'wait=1', Authorization: `Bearer ${t.adminJwt}` }, 100) + '{"q', {
      localAddress: '127.0.0.16',
      waitMs: 5000,
    });
    expect(res.status).toBe(408);
    expect(res.closed).toBe(true);
    // The deadline's 408, not the body limit's (which passes later).
    expect(rawJson(res.text)?.errors).toEqual([
      { context: 'middleware', message: 'The request body did not arrive before the request deadline.' },
    ]);
    // The body's own time limit passes later, on an answered request: nothing more happens (no second answer, no
    // exception from its timer).
    await sleep(1000);
    expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
  });

  it('cuts an upload that stalls with 408, closes the connection and keeps no file', async () => {
    const start = await fetch(`http://127.0.0.1:${server.port}/api/v2/file-upload/start`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminJwt}` },
    });
    const id = ((await start.json()) as { data: { id: number } }).data.id;
    const head =
      `POST /api/v2/file-upload/${id} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1024 * KiB}\r\n` +
      `Authorization: Bearer ${t.adminJwt}\r\n\r\n`;
    const res = await rawExchange(server.port, head + '{"meta":', {
      localAddress: '127.0.0.17',
      then: [{ afterMs: 800, data: '{"type":' }],
      waitMs: 6000,
    });
    expect(res.status).toBe(408);
    expect(res.closed).toBe(true);
    // Armed again by the second chunk: the pause that counts began at 800 ms.
    expect(res.closedAfterMs).toBeGreaterThan(2000);
    expect(rawJson(res.text)?.errors).toEqual([{ context: 'middleware', message: expect.stringMatching(/stalled/) }]);
    expect(incoming()).toEqual([]);
  });

  it('holds at most 4 connections per client address; other addresses are served', async () => {
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < 4; i++) held.push(await idleConnection(server.port, '127.0.0.21'));
      const fifth = await rawExchange(server.port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n', { localAddress: '127.0.0.21', waitMs: 3000 });
      expect(fifth.status).toBe(429);
      expect(fifth.closed).toBe(true);
      expect(rawJson(fifth.text)?.errors).toEqual([{ context: 'http', message: expect.stringMatching(/Too many connections/) }]);
      const other = await rawExchange(server.port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', {
        localAddress: '127.0.0.22',
      });
      expect(other.status).toBe(200);
    } finally {
      for (const s of held) s.destroy();
    }
    await sleep(100);
    const again = await rawExchange(server.port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', {
      localAddress: '127.0.0.21',
    });
    expect(again.status).toBe(200);
  });

  it('bounds the body bytes one address holds in memory across its requests', async () => {
    const auth = { Authorization: `Bearer ${t.adminJwt}` };
    // 700 KiB declared and only begun: held for the address until it ends.
    const first = rawExchange(server.port, post('/graphql', auth, 700 * KiB) + '{"query":', { localAddress: '127.0.0.31', waitMs: 4000 });
    await sleep(200);
    const second = await rawExchange(server.port, post('/graphql', auth, 700 * KiB) + '{"query":', {
      localAddress: '127.0.0.31',
      waitMs: 3000,
    });
    expect(second.status).toBe(429);
    expect(second.closed).toBe(true);
    expect(rawJson(second.text)?.errors).toEqual([
      { context: 'middleware', message: expect.stringMatching(/in flight from this address/) },
    ]);
    const elsewhere = rawExchange(server.port, post('/graphql', auth, 700 * KiB) + '{"query":', {
      localAddress: '127.0.0.32',
      waitMs: 4000,
    });
    expect((await first).status).toBe(408);
    expect((await elsewhere).status).toBe(408);
  });
});
