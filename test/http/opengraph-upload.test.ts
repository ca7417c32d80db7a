import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiToken, signed, useTestApp, type ApiToken } from '../helpers/app';
import { runCli } from '../helpers/cli';
import { SHARED_FIXTURES } from '../helpers/fixtures';
import { uploadJob } from '../helpers/upload';
import { zip } from '../helpers/zip';

/** OpenGraph files take the same routes as collector files: REST upload (plain or zipped) and `gas ingest`. */
const MINIMAL = path.join(SHARED_FIXTURES, 'opengraph', 'minimal.json');

describe('OpenGraph through the upload routes and the command line', () => {
  const t = useTestApp();
  let token: ApiToken;
  beforeAll(async () => {
    token = await apiToken(t.app, t.adminJwt);
  });
  const job = async (id: number) =>
    (await signed(t.app, token, 'GET', '/api/v2/file-upload?limit=1000')).body.data.find((j: { id: number }) => j.id === id);
  const kindsOf = async (objectid: string) =>
    (
      await t.testDb.db.query<{ kinds: string[] }>(
        'select array(select k.name from graph_kinds k where k.id = any(n.kind_ids) order by k.name) as kinds from graph_nodes n where objectid = $1',
        [objectid],
      )
    )[0]?.kinds;

  it('over REST, as a file and inside a zip; a bad one fails by name', async () => {
    const renamed = fs.readFileSync(MINIMAL, 'utf8').replace(/org-1/g, 'org-2');
    const id = await uploadJob(t.app, token, [
      MINIMAL,
      ['graph.zip', await zip([['github/graph.json', renamed]]), 'application/zip'],
      ['broken-graph.json', '{"graph": {"nodes": [{"id": "x", "kinds": ["Tag_X"]}]}}'],
    ]);
    await t.services.datapipe.drain();
    const j = await job(id);
    expect(j).toMatchObject({ total_files: 3, failed_files: 1 });
    expect(j.status_message).toMatch(
      /broken-graph\.json: failed OpenGraph validation: nodes\[0\]: kind 'Tag_X' uses reserved namespace 'tag'/,
    );
    expect(await kindsOf('ORG-1')).toEqual(['GH_Organization']);
    expect(await kindsOf('ORG-2')).toEqual(['GH_Organization']);
  });

  it('through gas ingest', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-og-cli-'));
    try {
      const file = path.join(dir, 'graph.json');
      fs.writeFileSync(file, fs.readFileSync(MINIMAL, 'utf8').replace(/org-1/g, 'org-3'));
      const res = await runCli(['ingest', file, '--no-analysis'], { DATABASE_URL: t.testDb.url });
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout.trim().split('\n')[0]!)).toMatchObject({ type: 'opengraph', nodes: 4, edges: 3 });
      expect(await kindsOf('ORG-3')).toEqual(['GH_Organization']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
