import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMBEDDED_ADMIN_PASSWORD, runCli, serveEmbedded } from '../helpers/cli';
import { eventually } from '../helpers/eventually';

/**
 * `gas ingest` into a running server's DATA_DIR: the server's path index follows the write by itself (the graph's
 * generation is announced at commit), not when some request happens to look. The check interval is set far out
 * here, so only the announcement can bring the new graph in; every answer names the generation it came from.
 */
describe('the path index follows another writer', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-follow-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('answers the new graph after a CLI ingest, and says which generation each answer came from', async () => {
    const dataDir = path.join(root, 'data');
    const files = path.join(root, 'files');
    expect(await runCli(['generate', '--users', '30', '--out', files], {})).toMatchObject({ code: 0 });
    const users = JSON.parse(fs.readFileSync(path.join(files, 'users.json'), 'utf8')) as {
      data: { ObjectIdentifier: string; PrimaryGroupSID: string }[];
    };
    const { ObjectIdentifier: start, PrimaryGroupSID: end } = users.data[0]!;

    const server = await serveEmbedded(dataDir, { INDEX_CHECK_MS: '600000' });
    try {
      const login = await fetch(`${server.url}/api/v2/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login_method: 'secret', username: 'admin', secret: EMBEDDED_ADMIN_PASSWORD }),
      });
      const token = ((await login.json()) as { data: { session_token: string } }).data.session_token;
      const paths = async () => {
        const res = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            query: `{ cypher(query: "MATCH p = shortestPath((a {objectid: '${start}'})-[*1..]->(b {objectid: '${end}'})) RETURN count(p) AS n") { rows } }`,
          }),
        });
        const body = (await res.json()) as { data?: { cypher: { rows: number[][] } }; extensions?: { graph?: { generation: number } } };
        if (!body.data) throw new Error(JSON.stringify(body));
        return {
          pathCount: body.data.cypher.rows[0]![0]!,
          generation: Number(res.headers.get('x-graph-generation')),
          rebuilding: res.headers.get('x-graph-index') === 'rebuilding',
          extension: body.extensions?.graph?.generation,
        };
      };
      const before = await paths();
      expect(before).toMatchObject({ pathCount: 0, rebuilding: false });
      // Only an answer from an index a newer graph is being built for carries the extension.
      expect(before.extension).toBeUndefined();

      expect(await runCli(['ingest', files, '--no-analysis'], { DATA_DIR: dataDir })).toMatchObject({ code: 0 });
      await eventually(async () => (await paths()).pathCount > 0, 'the ingested path answered');
      const after = await paths();
      expect(after.generation).toBeGreaterThan(before.generation);
      expect(after.rebuilding).toBe(false);
      expect(server.output()).toMatch(/graph index built/);
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
  }, 180_000);
});
