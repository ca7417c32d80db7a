import request from 'supertest';
import { parse } from 'yaml';
import { useTestApp } from '../helpers/app';
import { ROUTES } from '../../src/rest/routes/index';

/** GET /api/v2/spec/openapi.yaml: an OpenAPI document generated from the route table's schemas. */
describe('the OpenAPI document', () => {
  const t = useTestApp();

  it('lists every route of the table with its parameters and body, without credentials', async () => {
    const res = await request(t.app).get('/api/v2/spec/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/yaml/);
    const doc = parse(res.text);
    expect(doc).toMatchObject({ openapi: '3.1.0', servers: [{ url: 'http://gas.test' }] });
    const declared = new Set(ROUTES.map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`));
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`)),
    );
    expect(documented).toEqual(declared);
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) =>
      Object.values(ops).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);

    // Path and query parameters come from the zod schemas; so does a JSON body.
    const history = doc.paths['/api/v2/asset-group-tags-history'].get;
    expect(history.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['skip', 'limit', 'sort_by']));
    const member = doc.paths['/api/v2/asset-group-tags/{tag_id}/members/{member_id}'].get;
    expect(member.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'tag_id', in: 'path', required: true })]));
    const search = doc.paths['/api/v2/asset-group-tags/search'].post;
    expect(search.requestBody.content['application/json'].schema.properties).toMatchObject({
      query: expect.anything(),
      tag_type: expect.anything(),
    });
    expect(doc.paths['/api/v2/ingest'].post.requestBody.content).toHaveProperty('application/zip');

    const json = await request(t.app).get('/api/v2/spec/openapi.json');
    expect(JSON.parse(json.text)).toEqual(doc);
  });
});
