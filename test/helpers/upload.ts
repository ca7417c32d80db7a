import fs from 'node:fs';
import type { Express } from 'express';
import request from 'supertest';
import { apiToken, signed, type ApiToken, type TestApp } from './app';

/** A SharpHound v6 file built in a test. */
export const sharphound = (type: string, data: unknown[]) =>
  JSON.stringify({ meta: { methods: 0, type, count: data.length, version: 6 }, data });

/** Properties of an object of a test domain as SharpHound writes them: `NAME@DOMAIN`, the domain and its SID. */
export const inDomain =
  (domain: string, domainsid: string) =>
  (name: string, extra: Record<string, unknown> = {}) => ({ name: `${name}@${domain}`, domain, domainsid, ...extra });

/**
 * Uploads files through the REST file-upload API with signed requests, ends the job and returns its id. Each file
 * is a path on disk or [name, contents].
 */
export async function uploadJob(app: Express, token: ApiToken, files: (string | [string, Buffer | string, string?])[]): Promise<number> {
  const start = await signed(app, token, 'POST', '/api/v2/file-upload/start');
  if (start.status !== 201) throw new Error(`start failed: ${start.status} ${JSON.stringify(start.body)}`);
  const id = start.body.data.id as number;
  for (const f of files) {
    const [name, body, type] =
      typeof f === 'string' ? [f.split('/').pop()!, fs.readFileSync(f), 'application/json'] : [f[0], f[1], f[2] ?? 'application/json'];
    const res = await signed(app, token, 'POST', `/api/v2/file-upload/${id}`, body, { contentType: type }).set(
      'Content-Disposition',
      `attachment; filename="${name}"`,
    );
    if (res.status !== 202) throw new Error(`upload of ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const end = await signed(app, token, 'POST', `/api/v2/file-upload/${id}/end`);
  if (end.status !== 200) throw new Error(`end failed: ${end.status} ${JSON.stringify(end.body)}`);
  return id;
}

type UploadFile = Parameters<typeof uploadJob>[2][number];

/**
 * Uploads files as the admin (with a fresh API token, returned) in one job and runs the data pipeline to the end:
 * ingest, analysis, and the zones that follow analysis.
 */
export async function ingestAsAdmin(t: TestApp & { adminJwt: string }, files: UploadFile[]): Promise<ApiToken> {
  const token = await apiToken(t.app, t.adminJwt);
  await uploadJob(t.app, token, files);
  await t.services.datapipe.drain();
  return token;
}

/** The id of the Tier Zero zone (seeded by the migrations, filled by analysis). */
export async function tierZeroTagId(t: TestApp & { adminJwt: string }): Promise<number> {
  const res = await request(t.app).get('/api/v2/asset-group-tags').set('Authorization', `Bearer ${t.adminJwt}`);
  return res.body.data.tags.find((x: { name: string }) => x.name === 'Tier Zero').id;
}
