import type { Session } from '../auth/session.js';
import type { StagedFile } from '../services/datapipe/staged-file.js';
import type { BodyBoundCredential } from './auth/types.js';
import type { UploadAdmission } from './upload-gate.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** UUID of this request, also in the RequestID response header and every error body. */
      requestId: string;
      /** The caller, once authentication ran; null for anonymous requests. */
      session?: Session | null;
      /** A signed request's credential while its body streams: it decides once the last byte is in. */
      bodyCredential?: BodyBoundCredential;
      /** The body bytes exactly as received (what a request signature covers), before they are interpreted. */
      rawBody?: Buffer;
      /** An upload route's body, spooled to disk. */
      upload?: StagedFile;
      /** An upload's caller and disk budget, granted from the headers before the body is read. */
      uploadAdmission?: UploadAdmission;
      /** The request target as it arrived on the request line (path and query, still encoded). */
      rawTarget: string;
    }
  }
}

export {};
