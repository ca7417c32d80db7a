import fs from 'node:fs';
import path from 'node:path';
import { TESTLAB } from '../../test/helpers/fixtures';
import { zip } from '../../test/helpers/zip';
import { openSession, signIn, tempDir, useE2E } from './harness';

describe('File ingest', () => {
  const e = useE2E({ ingest: false });

  it('uploads JSON files and a zip with a progress bar each, and follows the job until it is complete', async () => {
    const s = await openSession(e.browser);
    const { page } = s;
    await signIn(page, e.base);
    await page.getByRole('navigation').getByRole('link', { name: 'File ingest' }).click();
    const dir = tempDir();
    const zipped = path.join(dir, 'groups-and-computers.zip');
    fs.writeFileSync(
      zipped,
      await zip([
        ['groups.json', fs.readFileSync(path.join(TESTLAB, 'groups.json'))],
        ['computers.json', fs.readFileSync(path.join(TESTLAB, 'computers.json'))],
      ]),
    );
    await page.getByLabel('Upload files').setInputFiles([path.join(TESTLAB, 'users.json'), path.join(TESTLAB, 'domains.json'), zipped]);
    for (const f of ['users.json', 'domains.json', 'groups-and-computers.zip']) await page.getByLabel(`${f} upload progress`).waitFor();
    await page.getByRole('button', { name: 'Upload' }).click();
    const jobs = page.getByRole('table', { name: 'Ingest jobs' });
    await jobs.getByRole('row').filter({ hasText: 'Complete' }).first().waitFor({ timeout: 45_000 });
    for (const f of ['users.json', 'domains.json', 'groups-and-computers.zip'])
      expect(await page.getByLabel(`${f} upload progress`).getAttribute('value')).toBe('1');
    // Per-file results of the finished job.
    const files = page.getByRole('table', { name: /^Files of job/ });
    await files.getByText('users.json').waitFor();
    expect(await files.getByRole('row').count()).toBe(4);
    expect(await files.innerText()).toMatch(/Ingested/);
    expect(s.errors).toEqual([]);
    expect(s.outside).toEqual([]);
    await s.context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows a file the server refuses as failed, with its error', async () => {
    const s = await openSession(e.browser);
    const { page } = s;
    await signIn(page, e.base, undefined, '/ui/ingest');
    const dir = tempDir();
    const bad = path.join(dir, 'not-a-collection.json');
    fs.writeFileSync(bad, '{"hello": "world"}');
    await page.getByLabel('Upload files').setInputFiles([bad]);
    await page.getByRole('button', { name: 'Upload' }).click();
    const jobs = page.getByRole('table', { name: 'Ingest jobs' });
    await jobs
      .getByRole('row')
      .filter({ hasText: /Failed|Complete|Partially/ })
      .first()
      .waitFor({ timeout: 45_000 });
    const files = page.getByRole('table', { name: /^Files of job/ });
    // The file's row says it failed and why, in the server's words.
    await files.getByRole('cell', { name: 'Failed', exact: true }).waitFor({ timeout: 45_000 });
    await files.getByText(/not-a-collection\.json: .*meta/).waitFor();
    expect(s.errors).toEqual([]);
    await s.context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
