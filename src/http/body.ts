import type { NextFunction, Request, Response } from 'express';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { parse as parseContentDisposition } from 'content-disposition';
import getRawBody from 'raw-body';
import typeis from 'type-is';
import { AppError, badRequest, tooLarge, unsupportedMedia } from '../errors.js';
import { MSG } from '../messages.js';
import type { BodyKind, FormFields } from '../rest/route.js';
import { checkInput, clip } from './input-guard.js';
import { StagedFile } from '../services/datapipe/staged-file.js';

export interface BodyOptions {
  /** Largest accepted body, compressed or not. */
  maxBytes: number;
}

/**
 * A 413 that ends the connection once sent, after which the rest of the body is discarded. The request stream is
 * not destroyed, which would reset the connection before the client reads the answer.
 */
function refuse(req: Request, res: Response, max: number, what?: string): AppError {
  res.setHeader('Connection', 'close');
  req.resume();
  return tooLarge('middleware', what ? `${MSG.bodyTooLarge} (over ${what})` : `${MSG.bodyTooLarge} (limit ${max} bytes)`);
}

/** The upload's chunks, stopping (without destroying the stream) once more than `max` bytes arrived. */
async function* chunks(req: Request, res: Response, max: number): AsyncGenerator<Buffer> {
  if (Number(req.headers['content-length'] ?? NaN) > max) throw refuse(req, res, max);
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > max) throw refuse(req, res, max);
    yield chunk as Buffer;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3): there is nothing to
 * wait for, and most GETs skip the stream reader and its turn of the event loop.
 */
function hasBody(req: Request): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the whole body into memory with raw-body, refusing more than `max` bytes (413) as early as the headers
 * allow. raw-body pauses the stream on a refusal; `refuse` drains the rest.
 */
async function readRaw(req: Request, res: Response, max: number): Promise<Buffer> {
  try {
    return await getRawBody(req, { limit: max, length: req.headers['content-length'] });
  } catch (err) {
    const e = err as { type?: string; message?: string };
    if (e.type === 'entity.too.large') throw refuse(req, res, max);
    if (e.type === 'request.aborted') throw badRequest('middleware', 'The request body ended before it was complete.');
    throw badRequest('middleware', `The request body could not be read: ${e.message ?? 'unknown error'}.`);
  }
}

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

/**
 * Reads a route's body before authentication, keeping the bytes exactly as sent for request signatures.
 *   json       parsed into req.body (400 when malformed, 415 when not JSON)
 *   none       read (a signature may still cover it) but not interpreted
 *   multipart  parsed into FormFields (field name → values; files as bytes)
 *   form       application/x-www-form-urlencoded into an object of strings (SAML's HTTP-POST binding)
 */
export function readBody(kind: Exclude<BodyKind, 'upload'> | 'graphql', opts: BodyOptions & { multipartMaxBytes?: number }) {
  const read = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const type = req.headers['content-type'];
    const multipart = isType(type, ['multipart/*']);
    let max = opts.maxBytes;
    if (kind === 'graphql' && multipart) {
      // GraphQL file uploads are read only for a caller the upload gate admitted from the headers.
      if (!req.uploadAdmission) {
        res.setHeader('Connection', 'close');
        req.resume();
        throw unsupportedMedia('graphql', 'Multipart GraphQL requests need credentials; send JSON otherwise.');
      }
      max = opts.multipartMaxBytes ?? opts.maxBytes;
    }
    const raw = hasBody(req) ? await readRaw(req, res, max) : EMPTY;
    if (req.uploadAdmission && !req.uploadAdmission.take(raw.length))
      throw refuse(req, res, max, 'the bytes one caller may have in flight across uploads');
    if (kind === 'graphql' && multipart) {
      req.bodySource = { kind: 'buffer', data: raw };
      req.body = raw; // graphql-yoga parses the multipart request from the bytes
      return next();
    }
    req.bodySource = { kind: 'buffer', data: raw };
    req.body = undefined;
    if (raw.length === 0 || kind === 'none') return next();
    if (kind === 'multipart') {
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
    const text = decode(raw, req.headers['content-encoding'], opts.maxBytes)
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
  return (req: Request, res: Response, next: NextFunction): void | Promise<void> => {
    // Most REST requests (every GET) have no body: nothing to read, so no promise for the router to wait on.
    if (kind !== 'graphql' && !hasBody(req)) {
      req.bodySource = { kind: 'buffer', data: EMPTY };
      req.body = undefined;
      return next();
    }
    return read(req, res, next);
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
 * as sent (gzip stays gzip; ingest recognises it). A signed upload (the gate keyed its digest) is hashed chunk by
 * chunk on the way to disk, one pass, and a mismatch is a 401. Whatever ends the body early (over the limit or the
 * caller's budget, cut short, a bad digest) removes the file before the answer; otherwise it is removed when the
 * response ends unless the upload took it over.
 */
export function readUpload(opts: { dir: string; maxBytes: number }) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
    const file = path.join(opts.dir, `upload-${crypto.randomUUID()}`);
    res.once('close', () => fs.rm(file, { force: true }, () => undefined));
    const admission = req.uploadAdmission;
    const out = fs.createWriteStream(file, { mode: 0o600 });
    // A failed write (disk full) surfaces through `once` below, never as an unhandled 'error' event.
    let writeError: Error | undefined;
    out.on('error', (err) => (writeError = err));
    let size = 0;
    let signed;
    try {
      for await (const chunk of chunks(req, res, opts.maxBytes)) {
        size += chunk.length;
        if (admission && !admission.take(chunk.length))
          throw refuse(req, res, opts.maxBytes, 'the bytes one caller may have in flight across uploads');
        admission?.signed?.update(chunk);
        if (writeError) throw writeError;
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      signed = admission?.signed?.finish();
    } catch (err) {
      out.destroy();
      await fs.promises.rm(file, { force: true });
      if (err instanceof AppError) throw err;
      if (req.destroyed || (err as { code?: string }).code === 'ECONNRESET')
        throw badRequest('middleware', 'The request body ended before it was complete.');
      throw err;
    }
    req.bodySource = { kind: 'file', path: file, signed };
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
