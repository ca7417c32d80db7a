import express from 'express';
import { benchConfig, benchDatabase, benchService, listen, load, ratio } from './harness';

/**
 * What the full pipeline costs per request: GET /api/v2/permissions/{id} with a JWT (request id, headers, Prefer
 * deadline, rate limit, JWT + session lookup, GraphQL operation through graphql-jit, reshape) against a bare
 * express route that runs the same SELECT and writes JSON, on the same database in the same run.
 */
export async function httpOverhead(): Promise<Record<string, unknown>> {
  const store = await benchDatabase();
  try {
    const config = benchConfig({ logLevel: 'silent' });
    const { services, app, stop } = await benchService(store, config);
    const ours = await listen(app);

    const bare = express();
    bare.get('/permissions/:id', async (req, res) => {
      const rows = await store.db.query('select id, authority, name, created_at, updated_at, deleted_at from permissions where id = $1', [
        Number(req.params.id),
      ]);
      res.json({ data: rows[0] });
    });
    const base = await listen(bare);

    const { sessionToken } = await services.identity.login({ loginMethod: 'secret', username: 'admin', secret: config.adminPassword });
    await load(`${ours.url}/api/v2/permissions/1`, { headers: { authorization: `Bearer ${sessionToken}` }, duration: 2 }); // warm-up
    const baseline = await load(`${base.url}/permissions/1`);
    const full = await load(`${ours.url}/api/v2/permissions/1`, { headers: { authorization: `Bearer ${sessionToken}` } });
    await ours.close();
    await base.close();
    await stop();
    return { storage: store.kind, baseline, ours: full, ratio_rps: ratio(full.rps, baseline.rps) };
  } finally {
    await store.close();
  }
}
