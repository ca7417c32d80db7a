import type { NextFunction, Request, Response } from 'express';
import type { AuditService } from '../services/audit/audit.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The audit rows of mutating requests refused before any operation ran (401 and 403 at the route guard, a 400 for
 * a malformed body or parameters, 404 for an unknown path): BloodHound's UnauthorizedAccessAttempt for the first
 * two, RejectedRequest otherwise. A request whose operation wrote its own row is not written twice.
 */
export function auditRefusals(audit: AuditService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!MUTATING.has(req.method)) return next();
    res.on('finish', () => {
      const requestId = (req as Request & { requestId?: string }).requestId ?? '';
      if (audit.takeRecorded(requestId) || res.statusCode < 400) return;
      const refused = res.statusCode === 401 || res.statusCode === 403;
      void audit.record(
        { session: req.session ?? null, requestId, clientIp: req.ip ?? '' },
        {
          action: refused ? 'UnauthorizedAccessAttempt' : 'RejectedRequest',
          fields: { method: req.method, path: req.path.slice(0, 512), status: res.statusCode },
        },
        'failure',
      );
    });
    next();
  };
}
