import type { NextFunction, Request, Response } from 'express';
import { forbidden, notFound, unauthorized } from '../errors.js';
import { MSG } from '../messages.js';
import type { FieldGuard } from '../rest/run.js';

/**
 * A route's guard, decided before its input is looked at: no caller where one is needed is a 401, a user on a
 * collector-only route a 404, a user without a required permission a 403; a caller learns nothing from a 400 or
 * 415 they may not be given. The same directives guard the operation itself when it runs (defence in depth).
 * A signed request's caller is known only once its body has been read (the signature covers it): the guard then
 * waits, and runs again after the body reader finished the signature.
 */
export function routeGuard(context: string, guards: FieldGuard[]) {
  // Routes sharing a path (entity lists) repeat one guard per operation: each distinct one is checked once.
  const needed = [...new Map(guards.filter((g) => !g.isPublic).map((g) => [JSON.stringify(g), g])).values()];
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (needed.length === 0 || req.bodyCredential) return next();
    const session = req.session;
    for (const g of needed) {
      if (!session) throw unauthorized(context, MSG.notAuthenticated);
      if (g.clientOnly && session.kind !== 'client') throw notFound(context, MSG.clientOnly);
      if (g.permissions.length) {
        if (session.kind !== 'user') throw forbidden(context, MSG.forbidden);
        const missing = g.permissions.filter((p) => !session.permissions.has(p));
        if (missing.length) throw forbidden(context, `${MSG.forbidden} Missing permission: ${missing.join(', ')}.`);
      }
    }
    next();
  };
}
