import request from 'supertest';
import type { Express } from 'express';
import type { ApiToken } from './app';

export const DAILY = 'DTSTART:20240101T020000Z\nRRULE:FREQ=DAILY;INTERVAL=1';

/** Registers a collector client through REST as the given user; returns its id and its own API token. */
export async function createClient(
  app: Express,
  jwt: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; token: ApiToken; body: any }> {
  const res = await request(app)
    .post('/api/v2/clients')
    .set('Authorization', `Bearer ${jwt}`)
    .send({ name: `collector-${Math.random().toString(36).slice(2, 8)}`, type: 'collector_ad', ...body });
  if (res.status !== 200) throw new Error(`client create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, token: { id: res.body.data.token.id, key: res.body.data.token.key }, body: res.body };
}

/** Creates a collection event through REST; returns the response body's data. */
export async function createEvent(app: Express, jwt: string, body: Record<string, unknown>): Promise<any> {
  const res = await request(app)
    .post('/api/v2/events')
    .set('Authorization', `Bearer ${jwt}`)
    .send({ rrule: DAILY, ...body });
  if (res.status !== 200) throw new Error(`event create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
