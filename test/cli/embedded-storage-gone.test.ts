import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMBEDDED_ADMIN_PASSWORD, serveEmbedded } from '../helpers/cli';
import { eventually } from '../helpers/eventually';

/**
 * The embedded store's files removed from under a running server (a cleanup script, a full disk, an operator
 * mistake): the database is still there but cannot read its storage. That is the operator's problem to fix, not a
 * bug to report as 500: the server answers 503 in the error wrapper with Retry-After, logs what the database said,
 * and stays up.
 */
describe('the embedded store loses its files under a running server', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-gone-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('answers 503 with Retry-After in the wrapper and keeps running', async () => {
    const server = await serveEmbedded(dataDir);
    try {
      const login = await fetch(`${server.url}/api/v2/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login_method: 'secret', username: 'admin', secret: EMBEDDED_ADMIN_PASSWORD }),
      });
      expect(login.status).toBe(200);

      // The database keeps the files it has open (an unlinked file stays readable): /health reads a table the
      // login did not, whose file is then gone.
      fs.rmSync(path.join(dataDir, 'postgres', 'base'), { recursive: true, force: true });

      const res = await fetch(`${server.url}/health`);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await res.json()) as { http_status: number; errors: { context: string; message: string }[] };
      expect(body).toMatchObject({
        http_status: 503,
        errors: [{ context: 'database', message: expect.stringMatching(/cannot read or store/) }],
      });
      // Logged as the operator's problem, with the database's own words, not as an unexpected error.
      // (the log is written asynchronously, and the path index's worker may log its own failure first: wait for the line)
      const storageGone = /"code":"58P01".*the database cannot read or write its storage/;
      await eventually(() => storageGone.test(server.output()), 'the 58P01 logged as lost storage');
      expect(server.output()).not.toContain('unexpected database error');
      expect(server.child.exitCode).toBeNull();
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    }
  }, 120_000);
});
