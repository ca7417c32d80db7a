import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { main } from '../../src/cli';
import { buildProgram } from '../../src/cli/program';
import { runCli } from '../helpers/cli';

/** Every command path of `gas` (`['user', 'create']`, …), read from the program itself. */
function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => [[...prefix, c.name()], ...commandPaths(c, [...prefix, c.name()])]);
}

/**
 * `main` in this process, its output captured. The environment is one no command could run with (a database that
 * does not answer, a configuration that does not load), so a command that acted instead of printing its help fails.
 */
async function gas(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  const saved = { ...process.env };
  Object.assign(process.env, {
    DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    EDITION: 'gold',
    DATA_DIR: path.join(os.tmpdir(), 'gas-help-untouched'),
  });
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.env = saved;
    process.exitCode = undefined;
    out.mockRestore();
    err.mockRestore();
  }
}

describe('gas --help, exit codes and usage errors', () => {
  const paths = commandPaths(buildProgram());

  it('has every command of the README', () => {
    expect(paths.map((p) => p.join(' '))).toEqual(
      expect.arrayContaining([
        'serve',
        'migrate',
        'user create',
        'user passwd',
        'token create',
        'secrets rotate',
        'ingest',
        'analyze',
        'generate',
      ]),
    );
  });

  // `help` is a subcommand of each level: `gas help ingest`, `gas user help create`.
  const helpOf = (p: string[]) => [...p.slice(0, -1), 'help', p.at(-1)!];
  it.each(paths.flatMap((p) => [[[...p, '--help']], [[...p, '-h']], [helpOf(p)]]))(
    '%j prints its usage and does nothing else',
    async (args) => {
      const r = await gas(args);
      const name = args.filter((a) => a !== 'help' && !a.startsWith('-')).join(' ');
      expect(r).toEqual({ code: 0, stdout: expect.stringMatching(new RegExp(`^Usage: gas ${name}`)), stderr: '' });
      expect(fs.existsSync(path.join(os.tmpdir(), 'gas-help-untouched'))).toBe(false);
    },
  );

  it('--version, -V and -v print the version', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V', '-v']) expect(await gas([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('no command: the help, on stderr, exit 2', async () => {
    const r = await gas([]);
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^Usage: gas[\s\S]*Exit codes: 0/) });
  });

  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['ingest', '--frob', 'x'], /unknown option '--frob'/],
    [
      ['user', 'create', 'bob', '--role', 'Wizard'],
      /option '--role <role>' argument 'Wizard' is invalid\. The role must be one of: Administrator, Power User, User, Read-Only, Upload-Only/,
    ],
    [['user', 'create', 'bob'], /required option '--role <role>' not specified/],
    [['user', 'passwd'], /missing required argument 'name'/],
    [['token', 'create'], /required option '--user <name>' not specified/],
    [['generate', '--tier', 'S'], /required option '--out <dir>' not specified/],
    [['generate', '--tier', 'XL', '--out', '/tmp/x'], /The tier must be one of: S, M, L/],
    [['generate', '--users', 'ten', '--out', '/tmp/x'], /--users takes a whole number of 1 or more/],
    [['generate', '--tier', 'S', '--users', '5', '--out', '/tmp/x'], /'--tier <tier>' cannot be used with option '--users <n>'/],
    [['ingest'], /missing required argument 'path'/],
  ])('%j: exit 2, the error names the option and what is allowed', async (args, message) => {
    const r = await gas(args);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/Usage: gas /);
  });

  it.each([
    [['ingest', '/nonexistent/collection'], 'gas ingest: /nonexistent/collection: no such file or directory\n'],
    [
      ['ingest', os.tmpdir() + '/gas-help-empty-dir'],
      `gas ingest: ${os.tmpdir()}/gas-help-empty-dir: the directory holds no collector files (.json, .zip or .gz)\n`,
    ],
    [['generate', '--out', os.tmpdir() + '/gas-help-gen'], 'gas generate: give the size: --tier <S|M|L> or --users <n>\n'],
    [['user', 'create', 'bob', '--role', 'user'], 'gas user: give the password with --password or in GAS_USER_PASSWORD\n'],
  ])('%j: a plain message and exit 2, before anything is opened', async (args, message) => {
    fs.mkdirSync(os.tmpdir() + '/gas-help-empty-dir', { recursive: true });
    expect(await gas(args)).toEqual({ code: 2, stdout: '', stderr: message });
  });

  it('the installed binary keeps the exit codes (child processes)', async () => {
    expect(await runCli(['--version'], {})).toMatchObject({ code: 0 });
    expect(await runCli(['migrate', '--help'], { EDITION: 'gold' })).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: gas migrate/),
    });
    expect(await runCli(['frobnicate'], {})).toMatchObject({ code: 2 });
    // A configuration that does not load is the command failing, not the command line: 1.
    expect(await runCli(['migrate'], { EDITION: 'gold' })).toMatchObject({ code: 1, stderr: expect.stringContaining('EDITION') });
  }, 60_000);
});
