import type { Session } from '../auth/session.js';
import type { StagedFile } from '../services/staged-file.js';

/** What a route's mapping functions may read of a request: already parsed, never the raw express objects. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  session: Session | null;
  /** scheme://host as the client addressed us. */
  baseUrl: string;
  /** The body of an upload route, spooled to disk. */
  upload?: StagedFile;
}

/** A response other than the default 200 JSON. */
export interface RestResponse {
  status?: number;
  /** JSON body; omitted for 204. */
  body?: unknown;
  /** Raw bytes instead of JSON (collector checksums). */
  raw?: { data: Buffer; contentType: string };
  headers?: Record<string, string>;
}

/** How a route's body is read before authentication (signatures cover the raw bytes). */
export type BodyKind = 'none' | 'json' | 'multipart' | 'form' | 'upload';

/** A multipart/form-data body: each field's values in order; files as their bytes. */
export type FormFields = Record<string, (string | { filename: string; contentType: string; content: Buffer })[]>;

/**
 * One documented endpoint: which GraphQL operation it runs and how the request and result are mapped.
 * Business rules never live here; `variables` only parses (400 naming the parameter) and `reshape` only
 * renames fields into the API document's envelope.
 */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Express path, e.g. /api/v2/permissions/:permission_id */
  path: string;
  /** Enterprise-only endpoints answer 404 in the community edition. */
  edition: 'both' | 'enterprise';
  /** Area name used as the error `context`. */
  context: string;
  operation: string;
  /**
   * When several routes share a method and path, the first whose `when` holds serves the request (e.g. entity
   * lists choose the list or the graph operation by `type`). Parameter errors thrown here are 400s as usual.
   */
  when?: (req: RestRequest) => boolean;
  body?: BodyKind;
  variables?: (req: RestRequest) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** From the operation's data to the response; the default wraps the first field as `{data: …}`. */
  reshape?: (data: any, req: RestRequest) => RestResponse;
  /** Deprecated endpoints announce their successor (Deprecation and Link headers). */
  deprecatedBy?: string;
}
