import type { NextFunction, Request, Response } from 'express';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { parse as parseContentDisposition } from 'content-disposition';
import typeis from 'type-is';
import { AppError, badRequest, tooLarge, unsupportedMedia } from '../errors.js';
import { MSG } from '../messages.js';
import type { BodyKind, FormFields } from '../rest/route.js';
import { checkInput, clip } from './input-guard.js';
import { StagedFile } from '../services/datapipe/staged-file.js';
import { whenReady } from '../maybe-promise.js';
import { readChunks, receiveBody, type ReceiveLimits } from './body-receive.js';
import { hasBody } from './errors.js';

/**
 * A 413 that ends the connection once sent, after which the rest of the body is discarded. The request stream is
 * not destroyed, which would reset the connection before the client reads the answer.
 */
function refuse(req: Request, res: Response, max: number, what?: string): AppError {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  req.resume();
  return tooLarge('middleware', what ? `${MSG.bodyTooLarge} (over ${what})` : `${MSG.bodyTooLarge} (limit ${max} bytes)`);
}

const EMPTY = Buffer.alloc(0);

/** Undoes Content-Encoding (gzip, deflate) with the same size limit on the result, so a small bomb stays small. */
function decode(raw: Buffer, encoding: string | undefined, max: number): Buffer {
  const enc = (encoding ?? 'identity').toLowerCase().trim();
  try {
    if (enc === 'identity' || enc === '') return raw;
    if (enc === 'gzip' || enc === 'x-gzip') return zlib.gunzipSync(raw, { maxOutputLength: max });
    if (enc === 'deflate') return zlib.inflateSync(raw, { maxOutputLength: max });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw tooLarge('middleware', `${MSG.bodyTooLarge} (limit ${max} bytes, decompressed)`);
    throw badRequest('middleware', `The request body could not be decompressed (${enc}).`);
  }
  throw unsupportedMedia('middleware', `Content-Encoding ${enc} is not supported; use gzip or deflate.`);
}

/** Whether a Content-Type header names one of the media types (type-is: parameters and case do not matter). */
const isType = (type: string | undefined, types: string[]) => !!type && typeis.is(type, types) !== false;

export interface BodyReadOptions extends ReceiveLimits {
  /** Largest multipart /graphql request (file uploads, for callers the upload gate admitted). */
  multipartMaxBytes?: number;
}

/**
 * Receives a route's body once the headers said who is calling (receiveBody: bounds, time limit, a signed body's
 * digest), keeping the bytes as sent in `req.rawBody`. Nothing is interpreted yet: the route's guard runs first.
 * A request without a body goes on at once (a signed one is finished in hand when its token is cached).
 */
export function receiveRouteBody(kind: Exclude<BodyKind, 'upload'> | 'graphql', opts: BodyReadOptions) {
  const read = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const multipart = kind === 'graphql' && isType(req.headers['content-type'], ['multipart/*']);
    // GraphQL file uploads are read only for a caller the upload gate admitted from the headers.
    if (multipart && !req.uploadAdmission)
      throw unsupportedMedia('graphql', 'Multipart GraphQL requests need credentials; send JSON otherwise.');
    const raw = await receiveBody(req, res, opts, { routeMax: multipart ? opts.multipartMaxBytes : undefined, unread: kind === 'none' });
    if (req.uploadAdmission && !req.uploadAdmission.take(raw.length))
      throw refuse(req, res, opts.multipartMaxBytes ?? opts.maxBytes, 'the bytes one caller may have in flight across uploads');
    req.rawBody = raw;
    next();
  };
  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    if (hasBody(req)) return read(req, res, next);
    req.rawBody = EMPTY;
    const credential = req.bodyCredential;
    if (!credential) return next();
    req.bodyCredential = undefined;
    return whenReady(credential.finish(), (session) => {
      req.session = session;
      next();
    });
  };
}

/**
 * Interprets the bytes `receiveRouteBody` kept, once the route's guard let the caller through:
 *   json       parsed into req.body (400 when malformed, 415 when not JSON)
 *   none       not interpreted
 *   multipart  parsed into FormFields (field name → values; files as bytes)
 *   json-or-multipart  either, by Content-Type (a PATCH of an SSO provider: SAML's form or OIDC's JSON)
 *   form       application/x-www-form-urlencoded into an object of strings (SAML's HTTP-POST binding)
 *   graphql    JSON parsed for yoga; a multipart request left as bytes (yoga parses it)
 * A compressed body (Content-Encoding) expands to at most what the caller could have sent uncompressed.
 */
export function parseRouteBody(kind: Exclude<BodyKind, 'upload'> | 'graphql', opts: { maxBytes: number; anonymousMaxBytes: number }) {
  const parse = async (req: Request, next: NextFunction): Promise<void> => {
    const type = req.headers['content-type'];
    const raw = req.rawBody ?? EMPTY;
    req.body = undefined;
    if (kind === 'graphql' && isType(type, ['multipart/*'])) {
      req.body = raw; // graphql-yoga parses the multipart request from the bytes
      return next();
    }
    if (raw.length === 0 || kind === 'none') return next();
    if (kind === 'multipart' || (kind === 'json-or-multipart' && isType(type, ['multipart/*']))) {
      if (!isType(type, ['multipart/form-data'])) throw unsupportedMedia('middleware', 'The request body must be multipart/form-data.');
      req.body = await parseMultipart(raw, type!);
      checkInput('middleware', req.body);
      return next();
    }
    if (kind === 'form') {
      if (!isType(type, ['application/x-www-form-urlencoded']))
        throw unsupportedMedia('middleware', 'The request body must be application/x-www-form-urlencoded.');
      req.body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
      checkInput('middleware', req.body);
      return next();
    }
    if (!isType(type, ['json', '+json']))
      throw unsupportedMedia('middleware', 'The request body must be JSON (Content-Type: application/json).');
    const text = decode(raw, req.headers['content-encoding'], req.session ? opts.maxBytes : opts.anonymousMaxBytes)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    try {
      req.body = JSON.parse(text);
    } catch (err) {
      throw badRequest('middleware', `${MSG.badJson} ${clip((err as Error).message)}`);
    }
    checkInput('middleware', req.body);
    next();
  };
  return (req: Request, _res: Response, next: NextFunction): void | Promise<void> => {
    // Most REST requests (every GET) have no body: nothing to parse, so no promise for the router to wait on.
    if (kind !== 'graphql' && !req.rawBody?.length) {
      req.body = undefined;
      return next();
    }
    return parse(req, next);
  };
}

/** Parses a multipart body with the platform's form-data parser (undici); a malformed body is a 400. */
async function parseMultipart(raw: Buffer, type: string): Promise<FormFields> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData();
  } catch (err) {
    throw badRequest('middleware', `The multipart body could not be parsed: ${(err as Error).message}`);
  }
  const fields: FormFields = {};
  for (const [name, value] of form.entries()) {
    const v =
      typeof value === 'string'
        ? value
        : { filename: value.name, contentType: value.type, content: Buffer.from(await value.arrayBuffer()) };
    (fields[name] ??= []).push(v);
  }
  return fields;
}

/**
 * Upload routes: the body streams to a file in `dir` (never whole in memory), at most `maxBytes` (413), and is left
 * as sent (gzip stays gzip; ingest recognises it). A signed upload is hashed chunk by chunk on the way to disk, one
 * pass, and a mismatch is a 401. A pause of more than `idleMs` between chunks is a 408 and the connection closes. Whatever ends the body early (over the limit or the
 * caller's budget, cut short, a bad digest) removes the file before the answer; otherwise it is removed when the
 * response ends unless the upload took it over.
 */
export function readUpload(opts: { dir: string; maxBytes: number; idleMs: number }) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (Number(req.headers['content-length'] ?? NaN) > opts.maxBytes) throw refuse(req, res, opts.maxBytes);
    fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
    const file = path.join(opts.dir, `upload-${crypto.randomUUID()}`);
    res.once('close', () => fs.rm(file, { force: true }, () => undefined));
    const admission = req.uploadAdmission;
    const out = fs.createWriteStream(file, { mode: 0o600 });
    // A failed write (disk full) surfaces through `once` below, never as an unhandled 'error' event.
    let writeError: Error | undefined;
    out.on('error', (err) => (writeError = err));
    let size = 0;
    try {
      await readChunks(req, res, {
        max: opts.maxBytes,
        timeoutMs: opts.idleMs,
        idle: true,
        onChunk(chunk) {
          size += chunk.length;
          if (admission && !admission.take(chunk.length))
            throw refuse(req, res, opts.maxBytes, 'the bytes one caller may have in flight across uploads');
          if (writeError) throw writeError;
          return out.write(chunk) ? undefined : once(out, 'drain').then(() => undefined);
        },
      });
      out.end();
      await once(out, 'finish');
      // A signed upload's digest was taken on the way to disk: its signature decides now (401 on a mismatch).
      const credential = req.bodyCredential;
      if (credential) {
        req.bodyCredential = undefined;
        req.session = await credential.finish();
      }
    } catch (err) {
      out.destroy();
      await fs.promises.rm(file, { force: true });
      throw err;
    }
    if (size > 0) {
      const disposition = fileNameOf(req.headers['content-disposition']);
      const type = String(req.headers['content-type'] ?? '');
      const fallback = /zip/i.test(type) ? 'upload.zip' : /gzip/i.test(type) ? 'upload.json.gz' : 'upload.json';
      const name = path.basename(disposition ?? String(req.headers['x-file-name'] ?? '')) || fallback;
      req.upload = new StagedFile(file, size, String(req.headers['content-type'] ?? 'application/octet-stream'), name);
    }
    next();
  };
}

/** The file name a Content-Disposition header gives (filename* or filename), or undefined when absent or malformed. */
function fileNameOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return parseContentDisposition(header).parameters.filename;
  } catch {
    return undefined;
  }
}
