import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useTestApp } from '../helpers/app';
import { runCli } from '../helpers/cli';
import { kindsOf, SHARED_FIXTURES } from '../helpers/fixtures';
import { uploadJob, useUploads } from '../helpers/upload';
import { zip } from '../helpers/zip';

/** OpenGraph files take the same routes as collector files: REST upload (plain or zipped) and `gas ingest`. */
const MINIMAL = path.join(SHARED_FIXTURES, 'opengraph', 'minimal.json');

describe('OpenGraph through the upload routes and the command line', () => {
  const t = useTestApp();
  const uploads = useUploads(t);

  it('over REST, as a file and inside a zip; a bad one fails by name', async () => {
    const renamed = fs.readFileSync(MINIMAL, 'utf8').replace(/org-1/g, 'org-2');
    const id = await uploadJob(t.app, uploads.token, [
      MINIMAL,
      ['graph.zip', await zip([['github/graph.json', renamed]]), 'application/zip'],
      ['broken-graph.json', '{"graph": {"nodes": [{"id": "x", "kinds": ["Tag_X"]}]}}'],
    ]);
    await t.services.datapipe.drain();
    const j = await uploads.job(id);
    expect(j).toMatchObject({ total_files: 3, failed_files: 1 });
    expect(j.status_message).toMatch(
      /broken-graph\.json: failed OpenGraph validation: nodes\[0\]: kind 'Tag_X' uses reserved namespace 'tag'/,
    );
    expect(await kindsOf(t.testDb.db, 'ORG-1')).toEqual(['GH_Organization', 'GitHub']);
    expect(await kindsOf(t.testDb.db, 'ORG-2')).toEqual(['GH_Organization', 'GitHub']);
  });

  it('through gas ingest', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-og-cli-'));
    try {
      const file = path.join(dir, 'graph.json');
      fs.writeFileSync(file, fs.readFileSync(MINIMAL, 'utf8').replace(/org-1/g, 'org-3'));
      const res = await runCli(['ingest', file, '--no-analysis', '--json'], { DATABASE_URL: t.testDb.url });
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout.trim().split('\n')[0]!)).toMatchObject({ type: 'opengraph', nodes: 4, edges: 3 });
      expect(await kindsOf(t.testDb.db, 'ORG-3')).toEqual(['GH_Organization', 'GitHub']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
