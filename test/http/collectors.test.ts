import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { expectWrapper, signed, useTestApp } from '../helpers/app';
import { createClient } from '../helpers/collectors';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-collectors-'));
const sums: Record<string, string> = {};

function release(type: string, version: string): void {
  fs.mkdirSync(path.join(dir, type), { recursive: true });
  const sum = crypto.createHash('sha256').update(`${type}-${version}`).digest('hex');
  sums[`${type}-${version}`] = sum;
  fs.writeFileSync(path.join(dir, type, `${type}-${version}.zip.sha256`), `${sum}  ${type}-${version}.zip\n`);
}

release('collector_ad', 'v1.1.0');
release('collector_ad', 'v2.6.1');
release('collector_ad', 'v2.10.0'); // newer than v2.6.1 by semver, older by string order
release('collector_ad', 'v3.0.0-rc.1');
release('collector_azure', 'v2.1.0');
fs.writeFileSync(path.join(dir, 'collector_ad', 'collector_ad-vbanana.zip.sha256'), 'x');
fs.writeFileSync(path.join(dir, 'collector_ad', 'notes.txt'), 'not a release');
fs.writeFileSync(path.join(dir, 'secret.sha256'), 'must never be served');
// Zips: v2.6.1's matches its checksum, v1.1.0's does not; v2.10.0 (latest) has none.
fs.writeFileSync(path.join(dir, 'collector_ad', 'collector_ad-v2.6.1.zip'), 'collector_ad-v2.6.1');
fs.writeFileSync(path.join(dir, 'collector_ad', 'collector_ad-v1.1.0.zip'), 'tampered');

describe('collector releases (endpoint 15)', () => {
  const t = useTestApp({ collectorsDir: dir });
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serves a release zip only when it matches its published checksum', async () => {
    const res = await request(t.app).get('/api/v2/collectors/sharphound/v2.6.1').set(admin()).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="collector_ad-v2.6.1.zip"');
    expect(Buffer.from(res.body).toString()).toBe('collector_ad-v2.6.1');
    expect(expectWrapper(await request(t.app).get('/api/v2/collectors/collector_ad/v1.1.0').set(admin()), 409).message).toMatch(
      /does not match its published checksum/,
    );
    expect(expectWrapper(await request(t.app).get('/api/v2/collectors/sharphound/latest').set(admin()), 404).message).toMatch(
      /zip is not in the collectors directory/,
    );
    expect((await request(t.app).get('/api/v2/collectors/collector_ad/v2.6.1')).status).toBe(401);
  });

  it('serves a release checksum file as bytes', async () => {
    const res = await request(t.app).get('/api/v2/collectors/collector_ad/v2.6.1/checksum').set(admin()).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/octet-stream/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="collector_ad-v2.6.1.zip.sha256"');
    expect(res.body.toString()).toBe(`${sums['collector_ad-v2.6.1']}  collector_ad-v2.6.1.zip\n`);
    const bare = await request(t.app).get('/api/v2/collectors/collector_ad/2.6.1/checksum').set(admin()).buffer(true);
    expect(bare.body.toString()).toBe(res.body.toString());
  });

  it('resolves latest by semver, skipping pre-releases', async () => {
    const res = await request(t.app).get('/api/v2/collectors/collector_ad/latest/checksum').set(admin()).buffer(true);
    expect(res.headers['content-disposition']).toBe('attachment; filename="collector_ad-v2.10.0.zip.sha256"');
    const list = await request(t.app).get('/api/v2/collectors/collector_ad').set(admin());
    expect(list.body).toEqual({
      data: {
        latest: 'v2.10.0',
        versions: [
          { version: 'v3.0.0-rc.1', sha256sum: sums['collector_ad-v3.0.0-rc.1'], deprecated: false },
          { version: 'v2.10.0', sha256sum: sums['collector_ad-v2.10.0'], deprecated: false },
          { version: 'v2.6.1', sha256sum: sums['collector_ad-v2.6.1'], deprecated: false },
          { version: 'v1.1.0', sha256sum: sums['collector_ad-v1.1.0'], deprecated: true },
        ],
      },
    });
    expect((await request(t.app).get('/api/v2/collectors/collector_open').set(admin())).body).toEqual({
      data: { latest: '', versions: [] },
    });
  });

  it('400 for an unknown type or a tag that is not a version; 404 for a version that is not there', async () => {
    // BloodHound's `sharphound`/`azurehound` are aliases; anything else is unknown.
    expect(expectWrapper(await request(t.app).get('/api/v2/collectors/bloodhound/latest/checksum').set(admin()), 400).message).toMatch(
      /Invalid collector type/,
    );
    for (const tag of ['banana', '..%2F..%2Fsecret', 'v1.0', 'v1.0.0%00', '..']) {
      const res = await request(t.app).get(`/api/v2/collectors/collector_ad/${tag}/checksum`).set(admin());
      expect({ tag, status: res.status }).toEqual({ tag, status: 400 });
    }
    expectWrapper(await request(t.app).get('/api/v2/collectors/..%2Fcollector_ad/v2.6.1/checksum').set(admin()), 400);
    expectWrapper(await request(t.app).get('/api/v2/collectors/collector_ad/v9.9.9/checksum').set(admin()), 404);
    expectWrapper(await request(t.app).get('/api/v2/collectors/collector_open/latest/checksum').set(admin()), 404);
  });

  it('needs an authenticated caller, a user or a client', async () => {
    expectWrapper(await request(t.app).get('/api/v2/collectors/collector_ad/latest/checksum'), 401);
    const c = await createClient(t.app, t.adminJwt);
    expect((await signed(t.app, c.token, 'GET', '/api/v2/collectors/collector_azure/latest/checksum')).status).toBe(200);
  });
});
