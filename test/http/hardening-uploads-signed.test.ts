import net from 'node:net';
import request from 'supertest';
import { signRequest } from '../../src/auth/signature';
import { apiToken, expectWrapper, signed, stagedUploads, useListening, useTestApp, type ApiToken } from '../helpers/app';
import { sharphound } from '../helpers/upload';
import { eventually } from '../helpers/eventually';

/**
 * signed uploads: the digest is taken while the body streams to disk (one pass, the file is never
 * read back); a mismatch, a body over the limit or one cut short leaves nothing on disk.
 */
describe('signed uploads hashed while streaming', () => {
  const t = useTestApp({ maxUploadBytes: 1024 * 1024 });
  const listening = useListening(t);
  let token: ApiToken;
  beforeAll(async () => {
    token = await apiToken(t.app, t.adminJwt);
  });
  const startJob = async () => (await signed(t.app, token, 'POST', '/api/v2/file-upload/start')).body.data.id as number;

  /** Writes a raw HTTP request and resolves with the status line, or null when the server closed without one. */
  function rawPost(head: string, body: Buffer, endEarly: boolean, later?: Buffer): Promise<string | null> {
    return new Promise((resolve) => {
      const socket = net.connect(listening.port, '127.0.0.1', () => {
        socket.write(head);
        socket.write(body);
        if (endEarly) socket.end();
        if (later) setTimeout(() => socket.write(later), 300).unref();
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text ? text.split('\r\n')[0]! : null));
      setTimeout(() => socket.destroy(), 3000).unref();
    });
  }

  it('refuses a wrong signature with 401 and no file left, as soon as it answers', async () => {
    const id = await startJob();
    const target = `/api/v2/file-upload/${id}`;
    const headers = signRequest({ tokenId: token.id, tokenKey: token.key, method: 'POST', target, body: '{"data":[]}' });
    const res = await request(t.app)
      .post(target)
      .set(headers)
      .set('Content-Type', 'application/json')
      .send(Buffer.alloc(300 * 1024, 0x20));
    expect(expectWrapper(res, 401).message).toBe(
      'Signed request rejected: signature digest mismatch (check the method, the request target with its query, the RequestDate hour and the body).',
    );
    expect(stagedUploads(t)).toBe(0);
  });

  it('ingests a correctly signed upload', async () => {
    const id = await startJob();
    const sid = 'S-1-5-21-9-9-9-4242';
    const body = sharphound('users', [{ ObjectIdentifier: sid, Properties: { name: 'STREAMED@TESTLAB.LOCAL' } }]);
    const up = await signed(t.app, token, 'POST', `/api/v2/file-upload/${id}`, body);
    expect(up.status).toBe(202);
    expect((await signed(t.app, token, 'POST', `/api/v2/file-upload/${id}/end`)).status).toBe(200);
    await t.services.datapipe.drain();
    const rows = await t.testDb.db.query<{ n: number }>('select count(*)::int as n from graph_nodes where objectid = $1', [sid]);
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a signed body over the size limit with 413 and no file', async () => {
    const id = await startJob();
    const target = `/api/v2/file-upload/${id}`;
    const body = Buffer.alloc(2 * 1024 * 1024, 0x20);
    const headers = signRequest({ tokenId: token.id, tokenKey: token.key, method: 'POST', target, body });
    // Chunked, so no Content-Length announces the size: the limit is met while streaming.
    const head =
      `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n';
    const chunked = Buffer.concat([Buffer.from(body.length.toString(16) + '\r\n'), body, Buffer.from('\r\n0\r\n\r\n')]);
    expect(await rawPost(head, chunked, false)).toMatch(/ 413 /);
    expect(stagedUploads(t)).toBe(0);
  });

  it('keeps nothing of a body shorter than its Content-Length, and survives it', async () => {
    const id = await startJob();
    const target = `/api/v2/file-upload/${id}`;
    const body = Buffer.alloc(64 * 1024, 0x20);
    const headers = signRequest({ tokenId: token.id, tokenKey: token.key, method: 'POST', target, body });
    const head =
      `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length * 4}\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n';
    await rawPost(head, body, true);
    await eventually(() => stagedUploads(t) === 0, 'the cut upload removed');
    expect((await request(t.app).get('/health')).status).toBe(200);
  });

  it('hashes only the Content-Length bytes of a longer body: the signature over all of it is a 401', async () => {
    const id = await startJob();
    const target = `/api/v2/file-upload/${id}`;
    const body = Buffer.from(sharphound('users', []));
    const headers = signRequest({ tokenId: token.id, tokenKey: token.key, method: 'POST', target, body });
    const head =
      `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length - 5}\r\n` +
      Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      '\r\n';
    // The bytes past Content-Length come after the answer (together, the parser would refuse them first).
    expect(await rawPost(head, body.subarray(0, -5), false, body.subarray(-5))).toMatch(/ 401 /);
    expect(stagedUploads(t)).toBe(0);
  });
});
