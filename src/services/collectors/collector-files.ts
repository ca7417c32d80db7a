import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import type { CollectorType } from '../../db/stores/collectors/clients-store.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { COLLECTOR_TYPES } from './clients.js';

export interface CollectorVersion {
  version: string;
  sha256sum: string;
  deprecated: boolean;
}

export interface CollectorManifest {
  type: CollectorType;
  latest: string | null;
  versions: CollectorVersion[];
}

export interface CollectorDownload {
  version: string;
  fileName: string;
  sha256sum: string;
  content: Buffer;
}

export interface ChecksumFile {
  version: string;
  fileName: string;
  content: Buffer;
}

const CONTEXT = 'collectors';
// The tag grammar is the only way a request reaches the disk: an enum member and a semver, never a path.
const TAG = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

/** A collector type as REST's path names it; GraphQL's ClientType enum has already checked it. */
export function collectorType(raw: string): CollectorType {
  if (!COLLECTOR_TYPES.includes(raw as CollectorType)) {
    throw badRequest(CONTEXT, `Invalid collector type: ${raw.slice(0, 40)}; use one of ${COLLECTOR_TYPES.join(', ')}.`);
  }
  return raw as CollectorType;
}

/**
 * Collector releases under COLLECTORS_DIR/<type>/<type>-vX.Y.Z.zip.sha256 (the zip beside it is optional here).
 * The directory is read per request, so dropping in a new release needs no restart.
 */
export function createCollectorFiles(dir: string) {
  async function manifest(type: CollectorType): Promise<CollectorManifest> {
    const names = await fs.readdir(path.join(dir, type)).catch(() => [] as string[]);
    const pattern = new RegExp(`^${type}-v(.+)\\.zip\\.sha256$`);
    const versions: CollectorVersion[] = [];
    for (const name of names) {
      const v = pattern.exec(name)?.[1];
      if (!v || !TAG.test(v) || !semver.valid(v)) continue;
      const text = await fs.readFile(path.join(dir, type, name), 'utf8').catch(() => '');
      const sum = text.trim().split(/\s+/)[0] ?? '';
      if (!/^[0-9a-f]{64}$/i.test(sum)) continue;
      versions.push({ version: `v${v}`, sha256sum: sum.toLowerCase(), deprecated: type === 'collector_ad' && semver.lt(v, '2.0.0') });
    }
    versions.sort((a, b) => semver.rcompare(a.version, b.version));
    // "latest" is the highest release; pre-releases only when there is nothing else.
    const latest = versions.find((v) => !semver.prerelease(v.version)) ?? versions[0];
    return { type, latest: latest?.version ?? null, versions };
  }

  /** The release a tag names (`latest` or a semver), or a 404. */
  async function release(type: CollectorType, tag: string): Promise<CollectorVersion> {
    if (tag !== 'latest' && !TAG.test(tag)) throw badRequest(CONTEXT, 'release_tag must be a version (vX.Y.Z) or latest.');
    const m = await manifest(type);
    const version = tag === 'latest' ? m.latest : `v${tag.replace(/^v/, '')}`;
    const known = version && m.versions.find((v) => v.version === version);
    if (!known) throw notFound(CONTEXT, tag === 'latest' ? `No ${type} release is available.` : `${type} ${tag} is not available.`);
    return known;
  }

  return {
    manifest,

    /** GET /api/v2/collectors/{type}/{tag}: the release's zip, which must match its published checksum. */
    async download(type: CollectorType, tag: string): Promise<CollectorDownload> {
      const known = await release(type, tag);
      const fileName = `${type}-${known.version}.zip`;
      const content = await fs.readFile(path.join(dir, type, fileName)).catch(() => {
        throw notFound(CONTEXT, `${type} ${known.version} has a checksum but its zip is not in the collectors directory.`);
      });
      const sum = crypto.createHash('sha256').update(content).digest('hex');
      if (sum !== known.sha256sum) throw conflict(CONTEXT, `${fileName} does not match its published checksum; it is not served.`);
      return { version: known.version, fileName, sha256sum: sum, content };
    },

    /** Endpoint 15: the checksum file's bytes for a release tag (`latest` or a semver). */
    async checksum(type: CollectorType, tag: string): Promise<ChecksumFile> {
      const known = await release(type, tag);
      const fileName = `${type}-${known.version}.zip.sha256`;
      return { version: known.version, fileName, content: await fs.readFile(path.join(dir, type, fileName)) };
    },
  };
}

export type CollectorFiles = ReturnType<typeof createCollectorFiles>;
