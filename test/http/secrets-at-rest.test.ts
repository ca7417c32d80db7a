import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { keyFilePath, rotateKeyFile } from '../../src/auth/secret-box';
import { composeServices } from '../../src/main/compose';
import { apiToken, createTestApp, login, signed, type ApiToken, type TestApp } from '../helpers/app';
import { testLog } from '../helpers/db';

/** Item 9.8: token keys and the JWT key are sealed with a server key kept outside the database; rotation re-seals. */
describe('secrets at rest', () => {
  let t: TestApp;
  let token: ApiToken;
  let jwt: string;
  const rows = () => t.testDb.db.query<{ id: string; key: string }>('select id, key from auth_tokens');
  const jwtRow = async () =>
    (await t.testDb.db.query<{ value: string }>(`select value from app_secrets where name = 'jwt_signing_key'`))[0]!.value;

  beforeAll(async () => {
    t = await createTestApp({ secretKey: undefined }); // the key file in DATA_DIR, not GAS_SECRET_KEY
    jwt = await login(t.app);
    token = await apiToken(t.app, jwt, 'at rest');
  });
  afterAll(() => t.close());

  it('stores no key in clear, and keeps the server key in a 0600 file outside the database', async () => {
    const row = (await rows()).find((r) => r.id === token.id)!;
    expect(row.key).toMatch(/^gas1:[0-9a-f]{8}:/);
    expect(row.key).not.toContain(token.key);
    expect(await jwtRow()).toMatch(/^gas1:/);
    expect(fs.statSync(keyFilePath(t.config.dataDir)).mode & 0o777).toBe(0o600);
    expect((await signed(t.app, token, 'GET', '/api/v2/permissions/1')).status).toBe(200);
  });

  it('a sealed key copied into another token row does not open there (401, not 500)', async () => {
    const other = await apiToken(t.app, jwt, 'victim');
    const sealed = (await rows()).find((r) => r.id === token.id)!.key;
    await t.testDb.db.execute('update auth_tokens set key = $2 where id = $1', [other.id, sealed]);
    const res = await signed(t.app, { id: other.id, key: token.key }, 'GET', '/api/v2/permissions/1');
    expect(res.status).toBe(401);
    expect(res.body.errors[0].message).toMatch(/cannot be opened/);
  });

  it('seals rows stored in clear before the migration at the next start', async () => {
    const plainKey = 'a-plain-key-from-an-older-version-of-the-service-000000000';
    const admin = await t.services.identity.principalByName('admin');
    const [{ id }] = await t.testDb.db.query<{ id: string }>(
      `insert into auth_tokens (user_id, name, key) values ($1, 'legacy', $2) returning id`,
      [admin.userId, plainKey],
    );
    expect((await signed(t.app, { id, key: plainKey }, 'GET', '/api/v2/permissions/1')).status).toBe(200);
    await composeServices({ db: t.testDb.db, config: t.config, log: testLog(), clock: t.clock.now, storage: 'test' });
    const stored = (await rows()).find((r) => r.id === id)!.key;
    expect(stored).toMatch(/^gas1:/);
    expect((await signed(t.app, { id, key: plainKey }, 'GET', '/api/v2/permissions/1')).status).toBe(200);
  });

  it('rotates: a new key file line, every row re-sealed, tokens and sessions keep working', async () => {
    const before = (await rows()).find((r) => r.id === token.id)!.key.split(':')[1];
    const newId = rotateKeyFile(t.config.dataDir);
    expect(fs.readFileSync(keyFilePath(t.config.dataDir), 'utf8').trim().split('\n')).toHaveLength(2);
    const result = await t.services.secrets.resealAll();
    expect(result.resealed).toBeGreaterThan(1);
    expect(result.unreadable).toBe(1); // the row tampered with above
    for (const r of (await rows()).filter((r) => r.id === token.id)) expect(r.key.split(':')[1]).toBe(newId);
    expect((await jwtRow()).split(':')[1]).toBe(newId);
    expect(newId).not.toBe(before);
    expect((await signed(t.app, token, 'GET', '/api/v2/permissions/1')).status).toBe(200);
    expect((await request(t.app).get('/api/v2/self').set('Authorization', `Bearer ${jwt}`)).status).toBe(200);
  });

  it('refuses a key file readable by others, and a malformed GAS_SECRET_KEY', async () => {
    const dir = fs.mkdtempSync(path.join(t.config.dataDir, 'k'));
    fs.writeFileSync(keyFilePath(dir), Buffer.alloc(32, 1).toString('base64'), { mode: 0o644 });
    await expect(
      composeServices({ db: t.testDb.db, config: { ...t.config, dataDir: dir }, log: testLog(), clock: t.clock.now, storage: 'test' }),
    ).rejects.toThrow(/readable by other users/);
    await expect(
      composeServices({
        db: t.testDb.db,
        config: { ...t.config, secretKey: 'short' },
        log: testLog(),
        clock: t.clock.now,
        storage: 'test',
      }),
    ).rejects.toThrow(/GAS_SECRET_KEY must be 32 bytes/);
  });
});
