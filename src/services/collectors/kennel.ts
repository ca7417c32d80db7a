import fs from 'node:fs/promises';
import path from 'node:path';
import semver from 'semver';
import type { CollectorType } from '../../db/stores/collectors/clients-store.js';
import type { CollectorFiles } from './collector-files.js';

export interface KennelAsset {
  name: string;
  downloadUrl: string;
  checksumDownloadUrl: string;
  os: string;
  arch: string;
}

export interface KennelRelease {
  version: string;
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
  releaseDate: Date;
  assets: KennelAsset[];
}

/** BloodHound's collector families and the releases under COLLECTORS_DIR that stand for them. */
const COMMUNITY: Record<string, CollectorType> = { sharphound: 'collector_ad', azurehound: 'collector_azure' };
const ENTERPRISE: Record<string, CollectorType | null> = {
  // This service runs the community collectors for both editions; it ships no enterprise builds.
  sharphound_enterprise: null,
  azurehound_enterprise: null,
  openhound: 'collector_open',
};
/** SharpHound runs on Windows (x86 .NET); the others' zips name no platform. */
const PLATFORM: Record<CollectorType, { os: string; arch: string }> = {
  collector_ad: { os: 'windows', arch: 'x86' },
  collector_azure: { os: '', arch: '' },
  collector_open: { os: '', arch: '' },
};
const ASSET = /^(collector_ad|collector_azure|collector_open)-(v[0-9A-Za-z.-]+)\.zip(\.sha256)?$/;

/** An asset name of the kennel's download route → the release it names, or null. */
export function kennelAsset(name: string): { type: CollectorType; version: string; checksum: boolean } | null {
  const m = ASSET.exec(name);
  if (!m || !semver.valid(m[2]!)) return null;
  return { type: m[1] as CollectorType, version: m[2]!, checksum: m[3] !== undefined };
}

/**
 * BloodHound's kennel manifests (/api/v2/kennel/manifest, …/enterprise-manifest) from the releases in COLLECTORS_DIR:
 * each release with its date (the checksum file's) and one asset, downloaded from /api/v2/kennel/download/<name>.
 */
export function createKennel(deps: { dir: string; files: CollectorFiles; rootUrl: string }) {
  async function releases(type: CollectorType | null): Promise<KennelRelease[]> {
    if (!type) return [];
    const m = await deps.files.manifest(type);
    return Promise.all(
      m.versions.map(async (v) => {
        const name = `${type}-${v.version}.zip`;
        const stat = await fs.stat(path.join(deps.dir, type, `${name}.sha256`)).catch(() => null);
        const parsed = semver.parse(v.version)!;
        const url = `${deps.rootUrl.replace(/\/$/, '')}/api/v2/kennel/download/${name}`;
        return {
          version: v.version,
          major: parsed.major,
          minor: parsed.minor,
          patch: parsed.patch,
          prerelease: parsed.prerelease.join('.'),
          // A Date of this realm (fs hands out its own), as the DateTime scalar checks.
          releaseDate: new Date(stat?.mtimeMs ?? 0),
          assets: [{ name, downloadUrl: url, checksumDownloadUrl: `${url}.sha256`, ...PLATFORM[type] }],
        };
      }),
    );
  }
  const manifest = async (families: Record<string, CollectorType | null>) =>
    Promise.all(Object.entries(families).map(async ([family, type]) => ({ family, releases: await releases(type) })));
  return {
    community: () => manifest(COMMUNITY),
    enterprise: () => manifest(ENTERPRISE),
  };
}

export type Kennel = ReturnType<typeof createKennel>;
