import { z } from 'zod';
import { asAppError } from '../../errors.js';
import { readCookie, sessionCookie } from '../../auth/session-cookie.js';
import { field, intText, parse, query } from '../params.js';
import * as shape from '../reshape/admin.js';
import { data, route, type FormFields, type RestRequest, type RestResponse } from '../route.js';

/**
 * The browser's copy of an OIDC login's state, so a callback URL made in another browser (login CSRF) is refused:
 * sent only under /api/v2/sso and, cross-site, only on the IdP's top-level redirect back (Lax).
 */
const STATE_COOKIE = 'gas_sso_state';
const stateCookie = (state: string, req: RestRequest, maxAge = 600) =>
  `${STATE_COOKIE}=${state}; Path=/api/v2/sso; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${req.secure ? '; Secure' : ''}`;

const id = intText(1);
const slugParams = z.object({ slug: z.string() });
const autoProvision = z
  .object({
    enabled: z.boolean().nullish(),
    default_role_id: z.number().int().nullish(),
    role_provision: z.boolean().nullish(),
  })
  .nullish();
/** BloodHound's OIDC provider body (create and update), plus our optional client_secret. */
const oidcBody = z.object({
  name: field.string(),
  issuer: field.string(),
  client_id: field.string(),
  client_secret: field.string(),
  config: z.object({ auto_provision: autoProvision }).nullish(),
});
const oidcVariables = (b: z.output<typeof oidcBody>) => {
  const a = b.config?.auto_provision;
  return {
    name: b.name,
    issuer: b.issuer,
    clientId: b.client_id,
    clientSecret: b.client_secret,
    autoProvision: a
      ? { enabled: a.enabled ?? null, defaultRoleId: a.default_role_id ?? null, roleProvision: a.role_provision ?? null }
      : null,
  };
};

/** A multipart body (every field a list of values), as opposed to a JSON object: SAML's form versus OIDC's JSON. */
export const isForm = (body: unknown): body is FormFields =>
  !!body && typeof body === 'object' && !Array.isArray(body) && Object.values(body).every(Array.isArray);

/**
 * Browsers land on the web app signed in (the HttpOnly session cookie, as after SAML); API clients asking for JSON
 * get the login result. The state cookie is spent.
 */
function oidcLanding(login: { userId: string; sessionToken: string; authExpired: boolean }, req: RestRequest): RestResponse {
  const spent = stateCookie('', req, 0);
  if (/application\/json/i.test(String(req.headers.accept ?? ''))) {
    const body = data({ user_id: login.userId, session_token: login.sessionToken, auth_expired: login.authExpired });
    return { ...body, headers: { 'Set-Cookie': spent } };
  }
  const session = sessionCookie(login.sessionToken, { secure: req.secure ?? false });
  return { status: 302, headers: { Location: '/ui/login?sso=ok', 'Set-Cookie': [session, spent] } };
}

/**
 * A browser whose sign-in failed (the IdP refused it, the state or the ID token did not check out) lands on the
 * sign-in page, which says so; API clients get the error document. The reason is logged, not put in the URL, so
 * a crafted link cannot make the page say anything else. The state cookie is spent either way.
 */
function oidcRefusedLanding(err: unknown, req: RestRequest): RestResponse | undefined {
  // Anything but our own refusals (which the masking plugin turns every failure into) goes to the error handler.
  if (!asAppError(err) || /application\/json/i.test(String(req.headers.accept ?? ''))) return undefined;
  return { status: 302, headers: { Location: '/ui/login?sso=refused', 'Set-Cookie': stateCookie('', req, 0) } };
}

/** OpenID Connect providers and sign-in, the SAML signing certificate, and the login redirect for either kind. */
export const ssoRoutes = [
  route('POST', '/api/v2/sso-providers/oidc', 'sso', 'CreateOidcProvider', {
    body: 'json',
    input: { body: oidcBody.default({ name: null, issuer: null, client_id: null, client_secret: null }) },
    variables: ({ body }) => {
      const v = oidcVariables(body);
      return { ...v, name: v.name ?? '', issuer: v.issuer ?? '', clientId: v.clientId ?? '' };
    },
    reshape: ({ createOidcProvider }) => ({ status: 201, ...data(shape.oidcProvider(createOidcProvider)) }),
  }),
  route('PATCH', '/api/v2/sso-providers/:sso_provider_id', 'sso', 'UpdateOidcProvider', {
    body: 'json-or-multipart',
    when: ({ body }) => !isForm(body),
    input: { params: z.object({ sso_provider_id: id }), body: z.unknown() },
    variables: ({ params, body }) => ({ id: params.sso_provider_id, ...oidcVariables(parse('sso', 'body', oidcBody, body ?? {})) }),
    reshape: ({ updateOidcProvider }) => data(shape.oidcProvider(updateOidcProvider)),
  }),
  route('GET', '/api/v2/sso-providers/:sso_provider_id/signing-certificate', 'sso', 'SamlSigningCertificate', {
    input: { params: z.object({ sso_provider_id: id }) },
    variables: ({ params }) => ({ id: params.sso_provider_id }),
    reshape: ({ samlSigningCertificate: c }) => ({
      raw: { data: Buffer.from(c.pem), contentType: 'application/x-pem-file' },
      headers: { 'Content-Disposition': `attachment; filename="${c.slug}-signing-certificate.pem"` },
    }),
  }),
  route('GET', '/api/v2/sso/:slug/login', 'sso', 'SsoLoginUrl', {
    input: { params: slugParams, query: z.object({ RelayState: query.string() }) },
    variables: ({ params, query }) => ({ slug: params.slug, relayState: query.RelayState ?? null }),
    reshape: ({ ssoLoginUrl }, req) => {
      const url = new URL(ssoLoginUrl);
      // An OIDC authorization request carries our state; SAML's redirect does not.
      const state = url.searchParams.get('state');
      const headers: Record<string, string> = { Location: ssoLoginUrl };
      if (state) headers['Set-Cookie'] = stateCookie(state, req);
      return { status: 302, headers };
    },
  }),
  route('GET', '/api/v2/sso/:slug/callback', 'sso', 'OidcCallback', {
    input: {
      params: slugParams,
      query: z.object({
        code: query.string(),
        state: query.string(),
        iss: query.string(),
        error: query.string(),
        error_description: query.string(),
      }),
    },
    variables: ({ params, query: q }, req) => ({
      slug: params.slug,
      code: q.code ?? null,
      state: q.state ?? null,
      iss: q.iss ?? null,
      error: q.error ?? null,
      errorDescription: q.error_description ?? null,
      browserState: readCookie(String(req.headers.cookie ?? ''), STATE_COOKIE) ?? null,
    }),
    reshape: ({ oidcCallback }, req) => oidcLanding(oidcCallback, req),
    refused: oidcRefusedLanding,
  }),
];
