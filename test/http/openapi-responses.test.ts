import request from 'supertest';
import { ROUTES } from '../../src/rest/routes/index';
import { useTestApp } from '../helpers/app';
import { TESTLAB_ALL_FILES } from '../helpers/fixtures';
import { ingestAsAdmin, tierZeroTagId } from '../helpers/upload';

const DOMAINS = 'MATCH (d:Domain) RETURN d';
const TESTLAB_SID = 'S-1-5-21-3130019616-2776909439-2417379446';
const key = (method: string, path: string) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`;
const declared = new Map(ROUTES.filter((r) => r.response).map((r) => [key(r.method, r.path), r.response!]));

/**
 * The response schemas routes declare: the OpenAPI document carries them at BloodHound's paths, and every live
 * answer of such a route (real HTTP, real PostgreSQL, TESTLAB analysed) has its declared status and parses with
 * its schema exactly (strict objects: no field missing, none extra).
 */
describe('response schemas in the OpenAPI document, held to the live answers', () => {
  const t = useTestApp();
  const admin = () => ({ Authorization: `Bearer ${t.adminJwt}` });
  const checked = new Set<string>();

  /** Calls a route and holds the answer to the route's declared status and schema. */
  async function call(method: string, template: string, url: string, body?: object) {
    const declaredResponse = declared.get(`${method} ${template}`);
    expect({ route: `${method} ${template}`, declared: !!declaredResponse }).toEqual({ route: `${method} ${template}`, declared: true });
    let req = request(t.app)[method.toLowerCase() as 'get'](url).set(admin());
    if (body) req = req.send(body);
    const res = await req;
    expect({ url, status: res.status }).toEqual({ url, status: declaredResponse!.status ?? 200 });
    if (declaredResponse!.schema) {
      const parsed = declaredResponse!.schema.safeParse(res.body);
      expect({ url, issues: parsed.success ? [] : parsed.error.issues }).toEqual({ url, issues: [] });
    }
    checked.add(`${method} ${template}`);
    return res;
  }

  beforeAll(async () => {
    await ingestAsAdmin(t, TESTLAB_ALL_FILES);
  });

  it('documents each declared success answer with its status and JSON schema', async () => {
    const doc = JSON.parse((await request(t.app).get('/api/v2/spec/openapi.json')).text) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
    };
    const tags = doc.paths['/api/v2/asset-group-tags']!.get!.responses['200']!.content!['application/json']!.schema;
    expect(tags).toMatchObject({
      type: 'object',
      required: ['data'],
      properties: { data: { properties: { tags: { type: 'array', items: { properties: { analysis_enabled: expect.anything() } } } } } },
    });
    expect(doc.paths['/api/v2/asset-group-tags']!.post!.responses).toHaveProperty('201.content.application/json.schema');
    expect(Object.keys(doc.paths['/api/v2/asset-group-tags/{tag_id}']!.delete!.responses)).toContain('204');
    // A route without a declared answer is documented as before: a plain 200.
    expect(doc.paths['/api/v2/self']!.get!.responses['200']).toEqual({ description: 'OK (some operations answer 201, 202 or 204)' });
  });

  it('answers every route with a declared schema as the schema says', async () => {
    const tierZero = await tierZeroTagId(t);
    await call('GET', '/api/v2/asset-group-tags', '/api/v2/asset-group-tags');
    await call('GET', '/api/v2/asset-group-tags/{tag_id}', `/api/v2/asset-group-tags/${tierZero}`);
    const created = await call('POST', '/api/v2/asset-group-tags', '/api/v2/asset-group-tags', {
      type: 1,
      name: 'Schema Zone',
      analysis_enabled: true,
    });
    const zone = created.body.data.id as number;
    await call('PATCH', '/api/v2/asset-group-tags/{tag_id}', `/api/v2/asset-group-tags/${zone}`, {
      description: 'described',
      glyph: 'star',
    });
    const selector = await call('POST', '/api/v2/asset-group-tags/{tag_id}/selectors', `/api/v2/asset-group-tags/${zone}/selectors`, {
      name: 'domains',
      seeds: [{ type: 2, value: DOMAINS }],
    });
    const selectorId = selector.body.data.id as number;
    await call(
      'PATCH',
      '/api/v2/asset-group-tags/{tag_id}/selectors/{selector_id}',
      `/api/v2/asset-group-tags/${zone}/selectors/${selectorId}`,
      { description: 'every domain' },
    );
    await call('GET', '/api/v2/asset-group-tags/{tag_id}/selectors', `/api/v2/asset-group-tags/${tierZero}/selectors`);
    const members = await call('GET', '/api/v2/asset-group-tags/{tag_id}/members', `/api/v2/asset-group-tags/${zone}/members`);
    expect(members.body.count).toBeGreaterThan(0);
    await call('GET', '/api/v2/asset-group-tags-history', `/api/v2/asset-group-tags-history?asset_group_tag_id=eq:${zone}`);
    await call('POST', '/api/v2/asset-group-tags-history', '/api/v2/asset-group-tags-history', { query: 'Schema' });
    await call(
      'DELETE',
      '/api/v2/asset-group-tags/{tag_id}/selectors/{selector_id}',
      `/api/v2/asset-group-tags/${zone}/selectors/${selectorId}`,
    );
    await call('DELETE', '/api/v2/asset-group-tags/{tag_id}', `/api/v2/asset-group-tags/${zone}`);
    await call('GET', '/api/v2/graphs/source-kinds', '/api/v2/graphs/source-kinds');
    await call('GET', '/api/v2/completeness', '/api/v2/completeness');
    const quality = await call(
      'GET',
      '/api/v2/ad-domains/{domain_id}/data-quality-stats',
      `/api/v2/ad-domains/${TESTLAB_SID}/data-quality-stats`,
    );
    expect(quality.body.data.length).toBeGreaterThan(0);
    await call(
      'GET',
      '/api/v2/azure-tenants/{tenant_id}/data-quality-stats',
      '/api/v2/azure-tenants/6C12B0B0-B2CC-4A73-8252-0B94BFCA2145/data-quality-stats',
    );
    await call('GET', '/api/v2/platform/{platform_id}/data-quality-stats', '/api/v2/platform/ad/data-quality-stats');
    // Last: it empties the graph.
    await call('POST', '/api/v2/clear-database', '/api/v2/clear-database', { deleteCollectedGraphData: true });
    // Every route that declares an answer was called.
    expect([...declared.keys()].filter((k) => !checked.has(k)).sort()).toEqual([]);
  });
});
