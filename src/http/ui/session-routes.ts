import type { Express, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { clearedSessionCookie, CSRF_HEADER, sessionCookie } from '../../auth/session-cookie.js';
import { asAppError, forbidden } from '../../errors.js';
import { MFA_MSG } from '../../services/identity/mfa.js';
import { whenReady } from '../../maybe-promise.js';
import { parse } from '../../rest/params.js';
import type { Envelope, OperationRunner } from '../../rest/run.js';
import { sameOrigin } from './cookie-session.js';

export interface SessionRoutesDeps {
  runner: OperationRunner;
  envelope: (req: Request, res: Response) => ReturnType<Envelope>;
  limiter: (routeKey: string) => RequestHandler;
  /** Reads the JSON body (the server's limits apply). */
  jsonBody: RequestHandler[];
  noBody: RequestHandler[];
  authenticate: RequestHandler;
  rootUrl: string;
}

const CONTEXT = 'session';

const loginBody = z.object({ username: z.string(), password: z.string(), otp: z.string().max(64).optional() });

/** The Login operation's answer to a right password of an enrolled user who sent no code (the first step). */
const asksForCode = (err: unknown, otp: string | undefined) => {
  const e = asAppError(err);
  return !otp && e?.code === 'BAD_REQUEST' && e.message === MFA_MSG.otpInvalid;
};

/** Only the app's own pages may start or end a cookie session (login CSRF included). */
function fromTheApp(rootUrl: string): RequestHandler {
  return (req, _res, next) => {
    if (req.headers[CSRF_HEADER] === undefined || !sameOrigin(req, rootUrl))
      throw forbidden(CONTEXT, `Sessions are started and ended by the web app only (same origin, with the ${CSRF_HEADER} header).`);
    next();
  };
}

/** Authentication that lets an expired or ended session through as anonymous: logging out must always work. */
function lenient(authenticate: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const pass = (err: unknown) => {
      if (asAppError(err)?.code !== 'UNAUTHENTICATED') return next(err);
      req.session = null;
      next();
    };
    try {
      const out = authenticate(req, res, next) as unknown;
      if (out instanceof Promise) out.catch(pass);
    } catch (err) {
      pass(err);
    }
  };
}

/**
 * The web app's sign-in and sign-out. `POST /ui/session` runs the same Login operation as `POST /api/v2/login`
 * (throttling, disabled users, expired passwords, the one-time password of an enrolled user) and hands the session JWT
 * to the browser as an HttpOnly cookie instead of in the body, so no page script ever holds it. A right password of
 * an enrolled user without a code answers `{otp_required: true}` and sets no cookie. `GET /ui/session` says whether the cookie holds a live
 * session. `DELETE /ui/session` ends the session on the server (Logout) and removes the cookie.
 */
export function mountSessionRoutes(app: Express, deps: SessionRoutesDeps): void {
  const guard = fromTheApp(deps.rootUrl);
  app.post('/ui/session', deps.limiter('POST /ui/session'), guard, deps.jsonBody, (req: Request, res: Response) => {
    const body = parse(CONTEXT, 'body', loginBody, req.body ?? {});
    const otp = body.otp?.trim() || undefined;
    const variables = { input: { loginMethod: 'secret', username: body.username, secret: body.password, otp } };
    res.setHeader('Cache-Control', 'no-store');
    // The code-needed state is an answer, not a failure: the form then asks for the one-time password.
    const codeNeeded = (err: unknown) => {
      if (!asksForCode(err, otp)) throw err;
      res.json({ data: { otp_required: true } });
    };
    let pending;
    try {
      pending = whenReady(
        deps.runner.run('Login', variables, () => deps.envelope(req, res), 'login'),
        (data) => {
          const { login } = data as { login: { userId: string; sessionToken: string; authExpired: boolean } };
          res.setHeader('Set-Cookie', sessionCookie(login.sessionToken, { secure: req.secure }));
          res.json({ data: { user_id: login.userId, auth_expired: login.authExpired } });
        },
      );
    } catch (err) {
      return codeNeeded(err);
    }
    return pending instanceof Promise ? pending.catch(codeNeeded) : pending;
  });
  // Whether the browser holds a live session: 200 either way, so the app's first look never logs a failed request.
  app.get('/ui/session', deps.limiter('GET /ui/session'), guard, deps.noBody, lenient(deps.authenticate), (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    const s = req.session;
    res.json({ data: s?.kind === 'user' ? { user_id: s.userId, principal_name: s.principalName } : null });
  });
  app.delete(
    '/ui/session',
    deps.limiter('DELETE /ui/session'),
    guard,
    deps.noBody,
    lenient(deps.authenticate),
    (req: Request, res: Response) => {
      const done = () => {
        res.setHeader('Set-Cookie', clearedSessionCookie({ secure: req.secure }));
        res.status(204).end();
      };
      if (!req.session) return done();
      return whenReady(
        deps.runner.run('Logout', {}, () => deps.envelope(req, res), 'logout'),
        done,
      );
    },
  );
}
