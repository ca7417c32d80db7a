import path from 'node:path';
import typeis from 'type-is';
import YAML from 'yaml';
import yauzl from 'yauzl';
import { badRequest, tooLarge, unsupportedMedia } from '../../errors.js';

const CONTEXT = 'saved-queries';

/** A query as BloodHound exports and imports it (TransferableSavedQuery), with where it came from for messages. */
export interface ImportedQuery {
  name: string;
  query: string;
  description: string;
  /** `file` or `file#3` (the fourth entry of a list), for a message naming what is wrong. */
  source: string;
}

/** Bounds of one import: what a hostile archive or document could otherwise make the server hold or walk. */
export const IMPORT_LIMITS = {
  /** Queries in one import. */
  maxQueries: 5000,
  /** Files in a zip archive (directories and skipped entries count too). */
  maxEntries: 5000,
  /** Decompressed bytes of all entries of a zip archive together. */
  maxUnzippedBytes: 32 * 1024 * 1024,
  /** Characters of a name, a description, a query. */
  maxName: 500,
  maxDescription: 10_000,
  maxQuery: 100_000,
};

const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/zip-compressed', 'application/x-zip'];
const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];
const JSON_TYPES = ['json', '+json'];

type Kind = 'json' | 'yaml' | 'zip';

/** What a file holds: its media type when it says, else a zip's signature, else its name's extension, else its first character. */
function kindOf(contentType: string, name: string, bytes: Buffer): Kind | undefined {
  const is = (types: string[]) => !!contentType && typeis.is(contentType, types) !== false;
  if (is(JSON_TYPES)) return 'json';
  if (is(ZIP_TYPES)) return 'zip';
  if (is(YAML_TYPES)) return 'yaml';
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'zip';
  const ext = path.extname(name).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yml' || ext === '.yaml') return 'yaml';
  if (ext === '.zip') return 'zip';
  const first = bytes
    .toString('utf8', 0, Math.min(bytes.length, 256))
    .replace(/^\uFEFF/, '')
    .trimStart()[0];
  if (first === '{' || first === '[') return 'json';
  return undefined;
}

/**
 * Reads an import body: BloodHound's JSON export ({name, query, description}), a list of them or of query-library
 * entries (Queries.json), BloodHound legacy's customqueries.json ({queries: [{name, queryList: [{query}]}]}), the
 * query library's YAML (one query a document; several documents or a list are fine), a zip of such files, or a
 * multipart form of such files. Anything malformed is a 400 naming the file; nothing is stored here.
 */
export async function readImport(bytes: Buffer, contentType: string, name: string): Promise<ImportedQuery[]> {
  const type = contentType.toLowerCase();
  if (typeis.is(type, ['multipart/form-data'])) return readMultipart(bytes, contentType);
  // A type that names none of the formats is refused; none, octet-stream or text/plain is looked at instead.
  const explicit = !!type && !typeis.is(type, ['application/octet-stream', 'text/plain']);
  if (explicit && !typeis.is(type, [...JSON_TYPES, ...ZIP_TYPES, ...YAML_TYPES]))
    throw unsupportedMedia(
      CONTEXT,
      `invalid content-type: ${contentType}; Content type must be application/json, application/zip, application/yaml or multipart/form-data`,
    );
  const kind = kindOf(explicit ? contentType : '', name, bytes);
  if (!kind) throw badRequest(CONTEXT, `${name}: not a JSON, YAML or zip file.`);
  const out = kind === 'zip' ? await readZip(bytes, name) : readDocument(kind, bytes, name);
  if (out.length === 0) throw badRequest(CONTEXT, `${name}: no queries found.`);
  return out;
}

async function readMultipart(bytes: Buffer, contentType: string): Promise<ImportedQuery[]> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
  } catch (err) {
    throw badRequest(CONTEXT, `The multipart body could not be parsed: ${(err as Error).message}`);
  }
  const out: ImportedQuery[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') continue;
    const file = Buffer.from(await value.arrayBuffer());
    out.push(...(await readImport(file, value.type, value.name || field)));
    if (out.length > IMPORT_LIMITS.maxQueries) throw tooMany();
  }
  if (out.length === 0) throw badRequest(CONTEXT, 'The form holds no file: send the queries as a file field.');
  return out;
}

const tooMany = () => badRequest(CONTEXT, `An import holds at most ${IMPORT_LIMITS.maxQueries} queries.`);

/** The queries of one JSON or YAML file. */
function readDocument(kind: 'json' | 'yaml', bytes: Buffer, name: string): ImportedQuery[] {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (kind === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw badRequest(CONTEXT, `failed to unmarshal json file ${name}: ${(err as Error).message}`);
    }
    return entriesOf(value, name);
  }
  // toJS bounds alias expansion ("billion laughs") with maxAliasCount; a document that needs more is refused.
  const docs = YAML.parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: ImportedQuery[] = [];
  for (const [i, doc] of list.entries()) {
    const err = doc.errors[0];
    if (err) {
      const at = err.linePos?.[0];
      throw badRequest(CONTEXT, `${name}: invalid YAML${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${err.message.split('\n')[0]}`);
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      throw badRequest(CONTEXT, `${name}: invalid YAML: ${(e as Error).message}`);
    }
    if (value === null || value === undefined) continue;
    out.push(...entriesOf(value, list.length > 1 ? `${name}#${i}` : name));
  }
  return out;
}

/** The queries a parsed document describes, in any of the shapes readImport names. */
function entriesOf(value: unknown, source: string): ImportedQuery[] {
  if (Array.isArray(value)) {
    if (value.length > IMPORT_LIMITS.maxQueries) throw tooMany();
    return value.map((v, i) => entry(v, `${source}#${i}`));
  }
  if (isObject(value) && Array.isArray(value.queries) && !('query' in value)) {
    const list = value.queries as unknown[];
    if (list.length > IMPORT_LIMITS.maxQueries) throw tooMany();
    return list.map((v, i) => legacyEntry(v, `${source}#${i}`));
  }
  return [entry(value, source)];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string field of an entry: required ones must be non-empty; all are bounded. */
function text(o: Record<string, unknown>, field: string, source: string, max: number, required: boolean): string {
  const v = o[field];
  if (v === undefined || v === null) {
    if (required) throw badRequest(CONTEXT, `${source}: "${field}" is required.`);
    return '';
  }
  if (typeof v !== 'string') throw badRequest(CONTEXT, `${source}: "${field}" must be a string.`);
  if (required && !v.trim()) throw badRequest(CONTEXT, `${source}: "${field}" is empty.`);
  if (v.length > max) throw badRequest(CONTEXT, `${source}: "${field}" is longer than ${max} characters.`);
  return v;
}

/** BloodHound's export or a query-library entry: name and query, with a description when there is one. */
function entry(v: unknown, source: string): ImportedQuery {
  if (!isObject(v)) throw badRequest(CONTEXT, `${source}: a query must be an object with "name" and "query".`);
  return {
    name: text(v, 'name', source, IMPORT_LIMITS.maxName, true).trim(),
    query: text(v, 'query', source, IMPORT_LIMITS.maxQuery, true),
    description: text(v, 'description', source, IMPORT_LIMITS.maxDescription, false),
    source,
  };
}

/**
 * A query of BloodHound legacy's customqueries.json: its name, its category as the description, and the Cypher of
 * the last step of its queryList (the one marked final when one is; earlier steps asked the user to pick a node).
 */
function legacyEntry(v: unknown, source: string): ImportedQuery {
  if (!isObject(v)) throw badRequest(CONTEXT, `${source}: a query must be an object with "name" and "queryList".`);
  if (!Array.isArray(v.queryList)) return entry(v, source);
  const steps = v.queryList.filter(isObject);
  const step = steps.find((s) => s.final === true) ?? steps[steps.length - 1];
  if (!step) throw badRequest(CONTEXT, `${source}: "queryList" holds no query.`);
  return {
    name: text(v, 'name', source, IMPORT_LIMITS.maxName, true).trim(),
    query: text(step, 'query', `${source}.queryList`, IMPORT_LIMITS.maxQuery, true),
    description: text(v, 'category', source, IMPORT_LIMITS.maxDescription, false),
    source,
  };
}

/**
 * The queries of every .json, .yml and .yaml file of a zip (macOS metadata and hidden files skipped). Entry count
 * and decompressed bytes are bounded whatever the archive's headers claim: yauzl checks each entry's real size
 * against its header while inflating, and the total is counted here.
 */
async function readZip(bytes: Buffer, name: string): Promise<ImportedQuery[]> {
  const fail = (err: unknown) => badRequest(CONTEXT, `${name}: not a valid zip file (${(err as Error).message}).`);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (err, z) => (err ? reject(fail(err)) : resolve(z!))),
  );
  if (zip.entryCount > IMPORT_LIMITS.maxEntries) {
    zip.close();
    throw badRequest(CONTEXT, `${name}: the archive holds ${zip.entryCount} entries; at most ${IMPORT_LIMITS.maxEntries} are read.`);
  }
  const out: ImportedQuery[] = [];
  let unzipped = 0;
  try {
    for (let e = await nextEntry(zip, fail); e; e = await nextEntry(zip, fail)) {
      const base = path.posix.basename(e.fileName);
      if (e.fileName.endsWith('/') || e.fileName.includes('__MACOSX') || base.startsWith('.')) continue;
      const ext = path.extname(base).toLowerCase();
      if (ext !== '.json' && ext !== '.yml' && ext !== '.yaml') continue;
      if (e.uncompressedSize > IMPORT_LIMITS.maxUnzippedBytes - unzipped) throw bomb(name);
      const data = await readEntry(zip, e, IMPORT_LIMITS.maxUnzippedBytes - unzipped, () => bomb(name), fail);
      unzipped += data.length;
      out.push(...readDocument(ext === '.json' ? 'json' : 'yaml', data, `${name}/${e.fileName}`));
      if (out.length > IMPORT_LIMITS.maxQueries) throw tooMany();
    }
  } finally {
    zip.close();
  }
  return out;
}

const bomb = (name: string) => tooLarge(CONTEXT, `${name}: the archive unpacks to more than ${IMPORT_LIMITS.maxUnzippedBytes} bytes.`);

function nextEntry(zip: yauzl.ZipFile, fail: (err: unknown) => Error): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const onEntry = (e: yauzl.Entry) => settle(() => resolve(e));
    const onEnd = () => settle(() => resolve(undefined));
    const onError = (err: Error) => settle(() => reject(fail(err)));
    const settle = (fn: () => void) => {
      zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
      fn();
    };
    zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
    zip.readEntry();
  });
}

/** One entry's bytes, stopping once more than `max` arrived (the stream is destroyed, nothing more inflated). */
function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number, over: () => Error, fail: (err: unknown) => Error): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(fail(err ?? new Error('unreadable entry')));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > max) {
          stream.destroy();
          reject(over());
        } else chunks.push(c);
      });
      stream.on('error', (e) => reject(fail(e)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}
