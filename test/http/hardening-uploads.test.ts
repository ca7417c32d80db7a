import http from 'node:http';
import request from 'supertest';
import { signRequest } from '../../src/auth/signature';
import { apiToken, expectWrapper, stagedUploads, useListening, useTestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';

/**
 * upload routes decide from the headers, before writing the body anywhere; each caller has a
 * number of concurrent uploads and a disk budget.
 */
describe('upload gate', () => {
  const t = useTestApp({ uploadsPerCaller: 1, uploadDiskBytesPerCaller: 8 * 1024 * 1024, maxGraphqlUploadBytes: 64 * 1024 });
  const listening = useListening(t);

  /**
   * Declares a huge body, sends `sendBytes` of it, and resolves with the status once the server answers (or
   * after `holdMs` with null, leaving the request open; `abort` ends it).
   */
  function hugePost(target: string, headers: Record<string, string>, sendBytes = 1024 * 1024, holdMs = 3000) {
    const req = http.request({
      host: '127.0.0.1',
      port: listening.port,
      method: 'POST',
      path: target,
      headers: { 'Content-Length': String(1024 ** 3), ...headers },
    });
    const answered = new Promise<number | null>((resolve) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(null));
      setTimeout(() => resolve(null), holdMs);
    });
    req.write(Buffer.alloc(sendBytes));
    return { answered, abort: () => req.destroy() };
  }

  it('refuses an anonymous 1 GiB body before writing any of it', async () => {
    for (const target of ['/api/v2/ingest', '/api/v2/file-upload/1']) {
      const { answered, abort } = hugePost(target, { 'Content-Type': 'application/json' });
      expect(await answered).toBe(401);
      abort();
    }
    expect(stagedUploads(t)).toBe(0);
  });

  it('refuses an unknown token or a stale date from the headers alone', async () => {
    const unknown = signRequest({
      tokenId: '6f1d4c1e-8f0e-4d38-9d6f-0a0a0a0a0a0a',
      tokenKey: 'x',
      method: 'POST',
      target: '/api/v2/file-upload/1',
      body: '',
    });
    const a = hugePost('/api/v2/file-upload/1', { ...unknown, 'Content-Type': 'application/json' });
    expect(await a.answered).toBe(401);
    a.abort();
    const token = await apiToken(t.app, t.adminJwt);
    const stale = signRequest({
      tokenId: token.id,
      tokenKey: token.key,
      method: 'POST',
      target: '/api/v2/file-upload/1',
      body: '',
      date: new Date(Date.now() - 5 * 3600_000),
    });
    const b = hugePost('/api/v2/file-upload/1', { ...stale, 'Content-Type': 'application/json' });
    expect(await b.answered).toBe(401);
    b.abort();
    expect(stagedUploads(t)).toBe(0);
  });

  it('refuses a signed body whose digest does not match, and keeps nothing', async () => {
    const token = await apiToken(t.app, t.adminJwt, 'digest');
    const headers = signRequest({
      tokenId: token.id,
      tokenKey: token.key,
      method: 'POST',
      target: '/api/v2/file-upload/1',
      body: '{"a":1}',
    });
    const res = await request(t.app).post('/api/v2/file-upload/1').set(headers).set('Content-Type', 'application/json').send('{"a":2}');
    expect(expectWrapper(res, 401).message).toMatch(/digest/);
    await eventually(() => stagedUploads(t) === 0, 'the refused upload removed');
  });

  it('caps concurrent uploads and in-flight bytes per caller', async () => {
    const auth = { Authorization: `Bearer ${t.adminJwt}`, 'Content-Type': 'application/json' };
    // Over the disk budget by its declared length: refused before reading.
    const big = hugePost('/api/v2/file-upload/1', auth);
    expect(await big.answered).toBe(413);
    big.abort();
    // One upload in flight (declared within budget, body still arriving); the second is a 429.
    const first = http.request({
      host: '127.0.0.1',
      port: listening.port,
      method: 'POST',
      path: '/api/v2/file-upload/1',
      headers: { ...auth, 'Content-Length': String(1024 * 1024) },
    });
    first.on('error', () => undefined);
    first.write(Buffer.alloc(1024));
    // In flight once its first bytes are on disk.
    await eventually(() => stagedUploads(t) === 1, 'the first upload spooling');
    const second = await request(t.app).post('/api/v2/file-upload/1').set(auth).send('{}');
    expectWrapper(second, 429);
    first.destroy();
    // Once it is gone, the caller may upload again (404: no such job, but past the gate).
    await eventually(
      async () => (await request(t.app).post('/api/v2/file-upload/1').set(auth).send('{}')).status !== 429,
      'a new upload let in',
    );
  });

  it('reads a multipart GraphQL request only for a caller, and only up to its own cap', async () => {
    const anon = await request(t.app)
      .post('/graphql')
      .field('operations', JSON.stringify({ query: '{ __typename }' }))
      .attach('0', Buffer.alloc(1024), 'x.bin');
    expectWrapper(anon, 401);
    const big = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .field('operations', JSON.stringify({ query: '{ __typename }' }))
      .attach('0', Buffer.alloc(128 * 1024), 'x.bin');
    expectWrapper(big, 413);
  });
});
