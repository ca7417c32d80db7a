import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMBEDDED_ADMIN_PASSWORD, runCli, serveEmbedded } from '../helpers/cli';
import { eventually } from '../helpers/eventually';

const login = (url: string) =>
  fetch(`${url}/api/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login_method: 'secret', username: 'admin', secret: EMBEDDED_ADMIN_PASSWORD }),
  });

/** Pids of the processes working in `dir` (the postmaster works in its data directory). */
function workingIn(dir: string): number[] {
  const real = fs.existsSync(dir) ? fs.realpathSync(dir) : dir;
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.realpathSync(`/proc/${entry}/cwd`) === real) pids.push(Number(entry));
    } catch {
      // gone, or not ours to look at
    }
  }
  return pids;
}

const stopped = (
  child: { kill(s: NodeJS.Signals): boolean; once(e: 'exit', f: (...a: unknown[]) => void): unknown },
  signal: NodeJS.Signals,
) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill(signal);
  });

/** The embedded PostgreSQL's lifecycle: started and stopped with the service, recovered after a kill, faults named. */
describe('the embedded PostgreSQL cluster', () => {
  let root: string;
  let dataDir: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'gas-cluster-'));
    dataDir = path.join(root, 'data');
  });
  afterEach(() => {
    for (const pid of workingIn(path.join(dataDir, 'postgres'))) process.kill(pid, 'SIGQUIT');
    const deep = path.join(root, 'd'.repeat(60), 'e'.repeat(60), 'data', 'postgres');
    for (const pid of workingIn(deep)) process.kill(pid, 'SIGQUIT');
    fs.rmSync(root, { recursive: true, force: true });
  });
  const cluster = () => path.join(dataDir, 'postgres');

  it('starts with the service under a parent only its owner may enter, and stops with it on SIGTERM', async () => {
    // As root the cluster runs as an unprivileged user, which cannot enter this parent.
    fs.chmodSync(root, 0o700);
    const server = await serveEmbedded(dataDir);
    try {
      expect((await login(server.url)).status).toBe(200);
      expect(workingIn(cluster())).not.toHaveLength(0);
      // No TCP port: the only way in is the socket in the cluster's 0700 directory.
      expect(fs.statSync(cluster()).mode & 0o077).toBe(0);
      expect(fs.readFileSync(path.join(cluster(), 'postmaster.pid'), 'utf8').split('\n')[5]).toBe('');
    } finally {
      await stopped(server.child, 'SIGTERM');
    }
    expect(server.child.exitCode).toBe(0);
    expect(workingIn(cluster())).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'embedded.lock'))).toBe(false);
  }, 120_000);

  it('recovers after the service is killed: the orphaned cluster is stopped, the data is all there', async () => {
    const first = await serveEmbedded(dataDir);
    const created = await runCli(['user', 'create', 'kept-user', '--role', 'User', '--password', 'a-long-enough-password-2!'], {
      DATA_DIR: dataDir,
    });
    expect(created).toMatchObject({ code: 0 });
    await stopped(first.child, 'SIGKILL');
    // The postgres the killed service ran is still up, holding the cluster.
    expect(workingIn(cluster())).not.toHaveLength(0);
    const started = Date.now();
    const second = await serveEmbedded(dataDir);
    try {
      expect(Date.now() - started).toBeLessThan(60_000);
      expect((await login(second.url)).status).toBe(200);
      const listed = await runCli(['user', 'list'], { DATA_DIR: dataDir });
      expect(listed.stdout).toContain('kept-user');
    } finally {
      await stopped(second.child, 'SIGTERM');
    }
    expect(workingIn(cluster())).toEqual([]);
  }, 180_000);

  it('starts over an unreadable postmaster.pid', async () => {
    expect(await runCli(['migrate'], { DATA_DIR: dataDir })).toMatchObject({ code: 0 });
    fs.writeFileSync(path.join(cluster(), 'postmaster.pid'), 'not a pid\n');
    expect(await runCli(['migrate'], { DATA_DIR: dataDir })).toMatchObject({ code: 0 });
  }, 120_000);

  it('names a cluster that fails to start in one line, exits non-zero and leaves nothing running or locked', async () => {
    expect(await runCli(['migrate'], { DATA_DIR: dataDir })).toMatchObject({ code: 0 });
    fs.writeFileSync(path.join(cluster(), 'PG_VERSION'), '9\n');
    const r = await runCli(['serve'], { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^gas: the embedded PostgreSQL stopped while starting: .*incompatible/);
    await eventually(() => workingIn(cluster()).length === 0, 'no postgres left');
    expect(fs.existsSync(path.join(dataDir, 'embedded.lock'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'embedded.json'))).toBe(false);
  }, 120_000);

  it('puts the socket in a private temporary directory when DATA_DIR is too deep for a socket path', async () => {
    const deep = path.join(root, 'd'.repeat(60), 'e'.repeat(60), 'data');
    expect(await runCli(['migrate'], { DATA_DIR: deep })).toMatchObject({ code: 0 });
    const server = await serveEmbedded(deep);
    try {
      expect((await login(server.url)).status).toBe(200);
      const url = JSON.parse(fs.readFileSync(path.join(deep, 'embedded.json'), 'utf8')).url as string;
      const socketDir = decodeURIComponent(/host=([^&]+)/.exec(url)![1]!);
      expect(socketDir.startsWith(os.tmpdir())).toBe(true);
      expect(fs.statSync(socketDir).mode & 0o077).toBe(0);
    } finally {
      await stopped(server.child, 'SIGTERM');
    }
  }, 120_000);

  it('refuses a DATA_DIR that is a file, in one line', async () => {
    fs.writeFileSync(dataDir, 'not a directory');
    const r = await runCli(['migrate'], { DATA_DIR: dataDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gas: DATA_DIR .* cannot be created|is not writable/);
  }, 60_000);
});
