import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, importJWK, SignJWT, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (the certified `oidc-provider` package) on a loopback port, for the tests' sign-ins. Login
 * needs no page: its interaction route signs in `nextAccount` at once, and consent is granted. With
 * `{ pages: true }` (a browser's sign-in) it asks instead, as an IdP does: a login page (a user name, the account
 * signed in) and then a consent page (Allow or Deny) for the scopes our client asks. `tamper`, when set, replaces the ID token of
 * the next token response with one the IdP's own key signs over the claims it returns (another audience, an expiry
 * in the past), so only our claim checks can refuse it.
 */
export interface TestOidcIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  nextAccount: string;
  tamper: ((claims: JWTPayload) => JWTPayload) | null;
  /** Follows an authorization URL through the IdP to the redirect back to us (the callback URL with code and state). */
  authorize(url: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startOidcIdp(redirectUris: string[], opts: { pages?: boolean } = {}): Promise<TestOidcIdp> {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(privateKey.export({ format: 'jwk' }) as Record<string, string>), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp: TestOidcIdp = {
    issuer,
    clientId: 'gas-test',
    clientSecret: 'a-client-secret-of-the-test-idp',
    nextAccount: 'alice@example.com',
    tamper: null,
    authorize: async () => {
      throw new Error('not started');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-idp-cookie-key'] },
    ttl: { Session: 600, Interaction: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, email: sub, email_verified: true, preferred_username: sub.split('@')[0] }),
    }),
    // Consent is granted for every scope asked (the test IdP has one client, ours), unless its pages ask for it.
    ...(opts.pages ? {} : { loadExistingGrant: grantEverything }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  } as never);
  async function grantEverything(ctx: { oidc: { client?: { clientId: string }; session?: { accountId?: string } } }) {
    const accountId = ctx.oidc.session?.accountId;
    if (!accountId || !ctx.oidc.client) return undefined;
    const grant = new provider.Grant({ accountId, clientId: ctx.oidc.client.clientId });
    grant.addOIDCScope('openid profile email');
    await grant.save();
    return grant;
  }
  const key = await importJWK(jwk, 'RS256');
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && idp.tamper && body?.id_token) {
      const claims = idp.tamper(decodeJwt(body.id_token));
      idp.tamper = null;
      ctx.body = { ...body, id_token: await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(key) };
    }
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (opts.pages && req.url?.startsWith('/interaction/')) {
      interact(provider, req, res).catch((err: Error) => {
        res.statusCode = 500;
        res.end(err.message);
      });
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      provider
        .interactionFinished(req, res, { login: { accountId: idp.nextAccount } }, { mergeWithLastSubmission: false })
        .catch((err: Error) => {
          res.statusCode = 500;
          res.end(err.message);
        });
      return;
    }
    callback(req, res);
  });

  idp.authorize = async (start: string) => {
    const jar = new Map<string, string>();
    let url = new URL(start);
    for (let hop = 0; hop < 8; hop++) {
      if (!url.href.startsWith(issuer)) return url;
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair!.indexOf('=');
        jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`the IdP answered ${res.status} without a redirect: ${await res.text()}`);
      url = new URL(location, url);
    }
    throw new Error('too many redirects at the IdP');
  };
  return idp;
}

type OidcProvider = InstanceType<typeof Provider>;

/** An IdP's page: a plain form, nothing fetched (an empty icon, so the browser asks for no favicon). */
const page = (title: string, form: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title></head>` +
  `<body><main><h1>${title}</h1>${form}</main></body></html>`;

async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
}

/**
 * The IdP's own pages for a browser: GET shows the step the provider asks for (login, then consent), POST finishes
 * it. Consent grants exactly the scopes and claims the provider says are missing.
 */
async function interact(provider: OidcProvider, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const { uid, prompt } = details;
  if (req.method === 'GET') {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(
      prompt.name === 'login'
        ? page(
            'Sign in to the test IdP',
            `<form method="post" action="/interaction/${uid}"><label for="u">Email</label>` +
              `<input id="u" name="username" autocomplete="username" required><button type="submit">Sign in</button></form>`,
          )
        : page(
            'Allow access',
            `<p>The application asks for: ${String((prompt.details.missingOIDCScope as string[] | undefined)?.join(', '))}</p>` +
              `<form method="post" action="/interaction/${uid}"><button type="submit" name="decision" value="allow">Allow</button>` +
              `<button type="submit" name="decision" value="deny">Deny</button></form>`,
          ),
    );
    return;
  }
  if (prompt.name === 'login') {
    const accountId = (await formBody(req)).get('username') ?? '';
    await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    return;
  }
  if ((await formBody(req)).get('decision') === 'deny') {
    const denied = { error: 'access_denied', error_description: 'The user denied access.' };
    await provider.interactionFinished(req, res, denied, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
  const scopes = prompt.details.missingOIDCScope as string[] | undefined;
  const claims = prompt.details.missingOIDCClaims as string[] | undefined;
  if (scopes) grant.addOIDCScope(scopes.join(' '));
  if (claims) grant.addOIDCClaims(claims);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
