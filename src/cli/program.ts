import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { TIERS } from '../generate/tiers.js';
import { count, oneOf, positiveInt, wholeNumber } from './args.js';
import type { GenerateFlags } from './data.js';

/**
 * The `gas` command line: every command, its arguments and options, and its help. Only commander and this file are
 * loaded to parse a command line, so `--help` and usage errors answer at once; each action imports what it runs
 * when it runs (the database, the graph, ingest).
 */

/** The roles the first migration seeds (test/cli/cli-help.test.ts holds this list to the database's). */
export const ROLES = ['Administrator', 'Power User', 'User', 'Read-Only', 'Upload-Only'] as const;

const ENVIRONMENT = `
Configuration comes from the environment (README.md, Configuration): DATABASE_URL (else the embedded store in
DATA_DIR), DATA_DIR, PORT, HOST, EDITION, GAS_SECRET_KEY, LOG_LEVEL (one-off commands default to warn), …

Exit codes: 0 done; 1 the command failed (a file not ingested, a database error, a bad configuration);
2 the command line is wrong (nothing was done).`;

/** The package's version, read where both the sources (src/cli) and the build (dist/cli) find it. */
function version(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

// The actions' modules, loaded when an action runs (require: lazy and synchronous, in the sources and the build alike).
const loadServe = () => require('./serve.js') as typeof import('./serve.js');
const loadData = () => require('./data.js') as typeof import('./data.js');
const loadAccounts = () => require('./accounts.js') as typeof import('./accounts.js');

export function buildProgram(): Command {
  const program = new Command('gas')
    .description('Graph Analysis Service: the BloodHound API v2 for Active Directory and Entra attack-path graphs.')
    .version(version(), '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'print this help and exit')
    .helpCommand('help [command]', 'print the help of a command')
    .addHelpText('after', ENVIRONMENT)
    .showHelpAfterError(true)
    .showSuggestionAfterError(true)
    .exitOverride();

  program
    .command('serve')
    .description('start the HTTP service (REST /api/v2, GraphQL /graphql) and run until SIGINT or SIGTERM')
    .action(async () => loadServe().serve());

  program
    .command('migrate')
    .description('apply database migrations and exit')
    .action(async () => loadData().migrateCommand());
  program
    .command('migrate-pglite')
    .description("move an earlier version's database (PGlite, DATA_DIR/pgdata) into the embedded PostgreSQL, once")
    .action(async () => loadData().migratePgliteCommand());

  const user = program.command('user').description('manage users');
  user
    .command('create')
    .description('create a user with a password and one role')
    .argument('<name>', 'the user name (principal)')
    .addOption(new Option('--role <role>', `one of: ${ROLES.join(', ')}`).argParser(oneOf('role', ROLES)).makeOptionMandatory())
    .addOption(new Option('--password <password>', 'at least 12 characters').env('GAS_USER_PASSWORD'))
    .option('--email <address>', 'the e-mail address')
    .action(async (name: string, opts: { role: string; password?: string; email?: string }) => loadAccounts().createUser(name, opts));
  user
    .command('list')
    .description('list users, one JSON object a line')
    .action(async () => loadAccounts().listUsers());
  user
    .command('passwd')
    .description("set a user's password and end their sessions")
    .argument('<name>', 'the user name')
    .addOption(new Option('--password <password>', 'at least 12 characters').env('GAS_USER_PASSWORD'))
    .option('--expire', 'make the user choose a new one at the next login')
    .action(async (name: string, opts: { password?: string; expire?: boolean }) => loadAccounts().setPassword(name, opts));
  for (const [verb, what] of [
    ['disable', 'disable a user, ending every session'],
    ['enable', 'enable a disabled user'],
    ['delete', 'delete a user with their sessions and tokens'],
    ['end-sessions', 'end every session of a user'],
  ] as const) {
    user
      .command(verb)
      .description(what)
      .argument('<name>', 'the user name')
      .action(async (name: string) => loadAccounts().userAction(verb, name));
  }
  user
    .command('link-sso')
    .description('let an SSO provider sign in a local user, or stop it')
    .argument('<name>', 'the user name')
    .addOption(new Option('--provider <slug|id>', 'the provider').conflicts('unlink'))
    .option('--unlink', 'unlink the user from their provider')
    .action(async (name: string, opts: { provider?: string; unlink?: boolean }) => loadAccounts().linkSso(name, opts));

  const token = program.command('token').description('manage API tokens');
  token
    .command('create')
    .description('issue an API token for a user (the key is shown only now)')
    .requiredOption('--user <name>', 'the user the token acts as')
    .option('--name <name>', 'a name for the token')
    .option('--json', 'print {id, key, user_id} as JSON')
    .action(async (opts: { user: string; name?: string; json?: boolean }) => loadAccounts().createToken(opts));

  const secrets = program.command('secrets').description('the server key that seals stored secrets');
  secrets
    .command('rotate')
    .description('make a new server key and re-seal every stored secret with it (with GAS_SECRET_KEY: re-seal under it)')
    .option('--prune', 'then keep only the new key in the key file')
    .action(async (opts: { prune?: boolean }) => loadAccounts().rotateSecrets(opts));

  program
    .command('ingest')
    .description('ingest SharpHound or AzureHound JSON files, directories of them or zips (gzip accepted), then analyse')
    .argument('<path...>', 'files, directories or zip archives')
    .option('--no-analysis', 'do not run analysis afterwards')
    .option('--wait', 'wait while a server or another command holds the data pipeline (else exit 1)')
    .option('--json', 'print one JSON object per file and one for the analysis, instead of tables')
    .action(async (paths: string[], opts: { analysis: boolean; wait?: boolean; json?: boolean }) => loadData().ingestCommand(paths, opts));

  program
    .command('analyze')
    .description('run analysis now')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { json?: boolean }) => loadData().analyzeCommand(opts));

  program
    .command('generate')
    .description('write a deterministic SharpHound v6 collection for one domain (and an AzureHound tenant)')
    .addOption(
      new Option('--tier <tier>', `a named size: ${Object.keys(TIERS).join(', ')} (≈ 10k, 100k, 1M nodes)`)
        .argParser(oneOf('tier', Object.keys(TIERS), (v) => v.toUpperCase()))
        .conflicts('users'),
    )
    .addOption(new Option('--users <n>', 'users of the domain, instead of a tier').argParser(positiveInt('--users')))
    .requiredOption('--out <dir>', 'the directory to write the files into (created if missing)')
    .addOption(new Option('--seed <n>', 'the random seed: the same seed gives the same files').argParser(wholeNumber('--seed')).default(1))
    .addOption(new Option('--aces <n>', 'ACEs per user and computer (the tier sets 28)').argParser(count('--aces')))
    .addOption(
      new Option('--azure-users <n>', 'also an AzureHound tenant of this many users (a tier sets it)').argParser(
        positiveInt('--azure-users'),
      ),
    )
    .option('--json', 'print {files, objects, bytes} as JSON')
    .action(async (opts: GenerateFlags) => loadData().generateCommand(opts));

  return program;
}
