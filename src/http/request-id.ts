import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Gives every request a fresh UUID (incoming ids are ignored, as in BloodHound) and the RequestID header. */
export function requestId() {
  return (req: Request, res: Response, next: NextFunction): void => {
    req.requestId = crypto.randomUUID();
    req.rawTarget = req.originalUrl;
    res.setHeader('RequestID', req.requestId);
    next();
  };
}
