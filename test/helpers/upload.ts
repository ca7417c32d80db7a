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

/** An upload job as the file-upload list reports it (the fields tests read; the rest of the row as it is). */
export type UploadJobRow = { id: number; status: number; total_files: number; failed_files: number; status_message: string } & Record<
  string,
  any
>;

/**
 * A collector's side of the upload API for one test file: the admin's API token (made before the tests, so read
 * `token` inside tests only) and the reads of a job and of its completed tasks, signed with it.
 */
export function useUploads(t: TestApp & { adminJwt: string }) {
  const up = {
    token: undefined as unknown as ApiToken,
    /** The job with this id, from the signed job list. */
    job: async (id: number): Promise<UploadJobRow> =>
      (await signed(t.app, up.token, 'GET', '/api/v2/file-upload?limit=1000')).body.data.find((j: { id: number }) => j.id === id),
    /** The job's completed tasks (one per file, with the per-file results). */
    tasks: async (id: number) => (await signed(t.app, up.token, 'GET', `/api/v2/file-upload/${id}/completed-tasks`)).body.data,
  };
  beforeAll(async () => {
    up.token = await apiToken(t.app, t.adminJwt);
  });
  return up;
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
