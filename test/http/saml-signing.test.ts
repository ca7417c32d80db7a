import crypto from 'node:crypto';
import request from 'supertest';
import { expectWrapper, useTestApp, userWithRole } from '../helpers/app';
import { createTestIdp, type TestIdp } from '../helpers/saml-idp';

/** The SAML service provider's own key pair: its signing certificate, and AuthnRequests signed where the IdP asks. */
describe('SAML SP signing certificate and signed AuthnRequests', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  let signing: TestIdp;
  let plain: TestIdp;

  const create = async (name: string, metadata: string) => {
    const res = await request(t.app)
      .post('/api/v2/saml/providers')
      .set(admin())
      .field('name', name)
      .attach('metadata', Buffer.from(metadata), { filename: 'idp.xml', contentType: 'application/xml' });
    expect(res.status).toBe(200);
    return res.body.data.sso_provider_id.int32 as number;
  };
  /** The body as bytes, whatever its type. */
  const bytes = (res: request.Response, done: (err: Error | null, body: unknown) => void) => {
    // superagent hands the parser the response stream itself.
    const stream = res as unknown as NodeJS.ReadableStream;
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => done(null, Buffer.concat(chunks)));
  };
  const certificate = (id: unknown, jwt = t.adminJwt) =>
    request(t.app)
      .get(`/api/v2/sso-providers/${id}/signing-certificate`)
      .set({ Authorization: `Bearer ${jwt}` })
      .buffer(true)
      .parse(bytes);

  /** Checks a redirect-binding signature: RSA-SHA256 over the query as sent, SAMLRequest, RelayState, SigAlg in order. */
  const verifyRedirect = (location: string, certPem: string): boolean => {
    const query = location.slice(location.indexOf('?') + 1);
    const parts = new Map(query.split('&').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
    const signed = ['SAMLRequest', 'RelayState', 'SigAlg']
      .filter((k) => parts.has(k))
      .map((k) => `${k}=${parts.get(k)}`)
      .join('&');
    const signature = Buffer.from(decodeURIComponent(parts.get('Signature')!), 'base64');
    return crypto.verify('sha256', Buffer.from(signed), new crypto.X509Certificate(certPem).publicKey, signature);
  };

  beforeAll(async () => {
    signing = await createTestIdp('https://signing-idp.test/saml', { wantAuthnRequestsSigned: true });
    plain = await createTestIdp('https://plain-idp.test/saml');
  });

  it('serves each provider’s SP certificate as a PEM attachment; its private key is sealed at rest', async () => {
    const id = await create('Signing IdP', signing.metadata);
    const res = await certificate(id);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="signing-idp-signing-certificate.pem"');
    const pem = res.body.toString('utf8');
    const cert = new crypto.X509Certificate(pem);
    expect(cert.subject).toContain('CN=http://gas.test/api/v2/sso/signing-idp');
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 86400_000);
    const [row] = await t.testDb.db.query<{ k: string }>(
      'select sp_private_key as k from saml_providers s join sso_providers p on p.id = s.sso_provider_id where p.id = $1',
      [id],
    );
    expect(row!.k).not.toMatch(/PRIVATE KEY/);
    // Another provider has its own pair.
    const other = await create('Plain IdP', plain.metadata);
    expect((await certificate(other)).body.toString('utf8')).not.toBe(pem);
  });

  it('answers 404 for an unknown provider or an id that is not a number, 403 without auth/ManageProviders', async () => {
    const get = (id: unknown, jwt = t.adminJwt) =>
      request(t.app)
        .get(`/api/v2/sso-providers/${id}/signing-certificate`)
        .set({ Authorization: `Bearer ${jwt}` });
    expectWrapper(await get(999999), 404);
    expectWrapper(await get('abc'), 400);
    const user = await userWithRole(t, 'User');
    expectWrapper(await get(1, user.jwt), 403);
  });

  it('signs AuthnRequests (redirect binding, RSA-SHA256) when the IdP wants them signed, with the served certificate', async () => {
    const [id] = (await request(t.app).get('/api/v2/sso-providers')).body.data
      .filter((p: { slug: string }) => p.slug === 'signing-idp')
      .map((p: { id: number }) => p.id);
    const pem = (await certificate(id)).body.toString('utf8');
    const login = await request(t.app).get('/api/v2/sso/signing-idp/login');
    expect(login.status).toBe(302);
    const location: string = login.headers.location;
    expect(location).toContain('SigAlg=http%3A%2F%2Fwww.w3.org%2F2001%2F04%2Fxmldsig-more%23rsa-sha256');
    expect(verifyRedirect(location, pem)).toBe(true);
    // A signature made with another key does not verify: the check above can fail.
    expect(verifyRedirect(location, signing.cert)).toBe(false);
    // The SP metadata advertises the certificate and that requests are signed.
    const metadata = (await request(t.app).get('/api/v2/sso/signing-idp/metadata').buffer(true).parse(bytes)).body.toString('utf8');
    expect(metadata).toContain('AuthnRequestsSigned="true"');
    expect(metadata).toContain(pem.replace(/-----[^-]+-----|\s/g, '').slice(0, 60));
  });

  it('leaves AuthnRequests unsigned where the IdP does not ask', async () => {
    const login = await request(t.app).get('/api/v2/sso/plain-idp/login');
    expect(login.status).toBe(302);
    expect(login.headers.location).not.toContain('Signature=');
  });
});
