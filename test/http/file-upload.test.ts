import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import { expectWrapper, signed, userWithRole, useTestApp } from '../helpers/app';
import { TESTLAB } from '../helpers/fixtures';
import { sharphound, uploadJob, useUploads } from '../helpers/upload';
import { zip } from '../helpers/zip';

const count = async (t: ReturnType<typeof useTestApp>, objectid: string) =>
  (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from graph_nodes where objectid = $1', [objectid]))[0]!.n;

describe('file upload jobs', () => {
  const t = useTestApp({ maxUploadBytes: 256 * 1024 });
  const uploads = useUploads(t);

  it('starts a job (201), accepts files (202), ends it (200) and ingests', async () => {
    const start = await signed(t.app, uploads.token, 'POST', '/api/v2/file-upload/start');
    expect(start.status).toBe(201);
    expect(start.body.data).toEqual({
      id: expect.any(Number),
      user_id: expect.any(String),
      client_id: null,
      status: 1,
      status_message: '',
      start_time: expect.any(String),
      end_time: '0001-01-01T00:00:00Z',
      last_ingest: '0001-01-01T00:00:00Z',
      total_files: 0,
      failed_files: 0,
    });
    const id = start.body.data.id;
    const up = await signed(t.app, uploads.token, 'POST', `/api/v2/file-upload/${id}`, fs.readFileSync(path.join(TESTLAB, 'users.json')));
    expect(up.status).toBe(202);
    expect(up.text).toBe('');
    const end = await signed(t.app, uploads.token, 'POST', `/api/v2/file-upload/${id}/end`);
    expect(end.status).toBe(200);
    expect(end.body.data).toMatchObject({ id, status: 6, total_files: 1 });
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, failed_files: 0, end_time: expect.not.stringMatching(/^0001/) });
    expect(await uploads.tasks(id)).toEqual([
      expect.objectContaining({
        file_name: 'upload.json',
        status: 2,
        errors: [],
        result: [expect.objectContaining({ type: 'users', objects: 17 })],
      }),
    ]);
  });

  it('reports a malformed file by name and position, ingests the others, and writes nothing of the bad one', async () => {
    const bad = sharphound('groups', [
      { ObjectIdentifier: 'S-1-5-21-1-1-1-777', Properties: { name: 'SHOULD NOT LAND' }, Aces: [] },
    ]).replace(/}\]}$/, '},]}');
    const id = await uploadJob(t.app, uploads.token, [
      ['broken-groups.json', bad],
      ['good-ous.json', fs.readFileSync(path.join(TESTLAB, 'ous.json'))],
    ]);
    await t.services.datapipe.drain();
    const job = await uploads.job(id);
    expect(job).toMatchObject({ status: 8, total_files: 2, failed_files: 1 });
    expect(job.status_message).toMatch(/broken-groups\.json: malformed (JSON|data item).*line \d+, byte \d+/);
    expect(await count(t, 'S-1-5-21-1-1-1-777')).toBe(0);
    expect(await count(t, '2A374493-816A-4193-BEFD-D2F4132C6DCA')).toBe(1);
    const [broken] = await uploads.tasks(id);
    expect(broken).toMatchObject({ file_name: 'broken-groups.json', status: 5, errors: [expect.stringContaining('broken-groups.json')] });
  });

  it.each([
    ['no meta', '{"data": []}', /no valid meta tag/],
    ['an unknown type', '{"meta": {"type": "printers"}, "data": []}', /unsupported file type "printers"/],
    ['no data', '{"meta": {"type": "users"}}', /no data tag/],
    ['an object without id', sharphound('users', [{ Properties: {} }]), /no ObjectIdentifier/],
  ])('fails a file with %s', async (_, body, message) => {
    const id = await uploadJob(t.app, uploads.token, [['x.json', body]]);
    await t.services.datapipe.drain();
    const job = await uploads.job(id);
    expect(job).toMatchObject({ status: 5, failed_files: 1 });
    expect(job.status_message).toMatch(message);
  });

  it('ingests a zip of collection files and a gzip-compressed file, and a UTF-8 BOM', async () => {
    const archive = await zip([
      ['20261122_domains.json', fs.readFileSync(path.join(TESTLAB, 'domains.json'))],
      ['notes.txt', 'ignored'],
      ['20261122_gpos.json', fs.readFileSync(path.join(TESTLAB, 'gpos.json'))],
    ]);
    const gz = zlib.gzipSync(fs.readFileSync(path.join(TESTLAB, 'containers.json')));
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(sharphound('groups', [{ ObjectIdentifier: 'S-1-5-21-1-1-1-888', Properties: { name: 'BOM GROUP' }, Aces: [] }])),
    ]);
    const id = await uploadJob(t.app, uploads.token, [
      ['collection.zip', archive, 'application/zip'],
      ['containers.json.gz', gz, 'application/gzip'],
      ['bom.json', bom],
    ]);
    await t.services.datapipe.drain();
    expect(await uploads.job(id)).toMatchObject({ status: 2, total_files: 3, failed_files: 0 });
    const results = (await uploads.tasks(id)).flatMap((f: { result: { type: string }[] }) => f.result.map((r) => r.type)).sort();
    expect(results).toEqual(['containers', 'domains', 'gpos', 'groups']);
    expect(await count(t, 'S-1-5-21-1-1-1-888')).toBe(1);
  });

  it('refuses a body over MAX_UPLOAD_BYTES with 413 and a non-collection content type with 415', async () => {
    const start = await signed(t.app, uploads.token, 'POST', '/api/v2/file-upload/start');
    const id = start.body.data.id;
    expectWrapper(await signed(t.app, uploads.token, 'POST', `/api/v2/file-upload/${id}`, Buffer.alloc(300 * 1024, 0x20)), 413);
    expectWrapper(
      await signed(t.app, uploads.token, 'POST', `/api/v2/file-upload/${id}`, '<xml/>', { contentType: 'application/xml' }),
      415,
    );
    expect(expectWrapper(await signed(t.app, uploads.token, 'POST', `/api/v2/file-upload/${id}`), 400).message).toMatch(/has no body/);
  });

  it('answers 404 for an unknown or someone else’s job, 400 for an ended one or a bad id', async () => {
    expectWrapper(await signed(t.app, uploads.token, 'POST', '/api/v2/file-upload/999999', '{}'), 404);
    const other = await userWithRole(t, 'Upload-Only');
    const theirs = await request(t.app).post('/api/v2/file-upload/start').set('Authorization', `Bearer ${other.jwt}`);
    expect(theirs.status).toBe(201);
    const mine = await userWithRole(t, 'Power User');
    expectWrapper(
      await request(t.app).post(`/api/v2/file-upload/${theirs.body.data.id}/end`).set('Authorization', `Bearer ${mine.jwt}`),
      404,
    );
    const id = await uploadJob(t.app, uploads.token, []);
    expect(expectWrapper(await signed(t.app, uploads.token, 'POST', `/api/v2/file-upload/${id}`, '{}'), 400).message).toMatch(
      /not accepting files/,
    );
    expect(expectWrapper(await signed(t.app, uploads.token, 'POST', `/api/v2/file-upload/${id}/end`), 400).message).toMatch(
      /already ended/,
    );
    expectWrapper(await signed(t.app, uploads.token, 'POST', '/api/v2/file-upload/abc/end'), 400);
  });

  it('needs graphdb/Ingest to upload (Read-Only gets 403) and a caller (401)', async () => {
    const ro = await userWithRole(t, 'Read-Only');
    expectWrapper(await request(t.app).post('/api/v2/file-upload/start').set('Authorization', `Bearer ${ro.jwt}`), 403);
    expectWrapper(await request(t.app).post('/api/v2/file-upload/start'), 401);
  });

  it('accepts a file through a GraphQL multipart upload', async () => {
    const gql = (query: string, variables?: object) =>
      request(t.app).post('/graphql').set('Authorization', `Bearer ${t.adminJwt}`).send({ query, variables });
    const job = (await gql('mutation { startUpload { id } }')).body.data.startUpload.id;
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${t.adminJwt}`)
      .field(
        'operations',
        JSON.stringify({
          query: 'mutation($j: Int!, $f: Upload!) { uploadFile(jobId: $j, file: $f) { fileName status } }',
          variables: { j: job, f: null },
        }),
      )
      .field('map', JSON.stringify({ 0: ['variables.f'] }))
      .attach(
        '0',
        Buffer.from(sharphound('groups', [{ ObjectIdentifier: 'S-1-5-21-1-1-1-999', Properties: { name: 'VIA GRAPHQL' }, Aces: [] }])),
        {
          filename: 'gql-groups.json',
          contentType: 'application/json',
        },
      );
    expect(res.body).toEqual({ data: { uploadFile: { fileName: 'gql-groups.json', status: 'PENDING' } } });
    expect((await gql(`mutation { endUpload(jobId: ${job}) { status } }`)).body.data.endUpload.status).toBe('INGESTING');
    await t.services.datapipe.drain();
    expect(await count(t, 'S-1-5-21-1-1-1-999')).toBe(1);
    // A JSON value can never stand in for a file.
    const forged = await gql('mutation($j: Int!, $f: Upload!) { uploadFile(jobId: $j, file: $f) { id } }', {
      j: job,
      f: { path: '/etc/passwd' },
    });
    expect(forged.body.errors[0].message).toMatch(/invalid value .*Expected type Upload|Upload must be a file/);
    expect(forged.body.data ?? null).toBeNull();
  });
});
