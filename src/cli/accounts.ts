import { pruneKeyFile, rotateKeyFile } from '../auth/secret-box.js';
import type { UserSession } from '../auth/session.js';
import type { Services } from '../services/index.js';
import { UsageError } from './args.js';
import { commandContext, printJson, withServices } from './context.js';

/**
 * The command line acts with every permission: whoever runs it already holds the database and the server key.
 * Its user id matches no user, so "your own account" rules (current password, not yourself) never apply.
 */
function operator(): UserSession {
  return {
    kind: 'user',
    userId: '00000000-0000-0000-0000-000000000000',
    principalName: 'gas-cli',
    permissions: new Set(['auth/ManageUsers', 'auth/ManageSelf', 'auth/ReadUsers']),
    roles: ['Administrator'],
    method: 'signature',
  };
}

const userId = async (s: Services, name: string) => (await s.identity.principalByName(name)).userId;

/** The password from --password or GAS_USER_PASSWORD (commander reads both); a usage error without one. */
function password(opts: { password?: string }): string {
  if (!opts.password) throw new UsageError('give the password with --password or in GAS_USER_PASSWORD');
  return opts.password;
}

export async function createUser(name: string, opts: { role: string; password?: string; email?: string }): Promise<void> {
  const secret = password(opts);
  const user = await withServices((s) =>
    s.identity.createUser({ principalName: name, password: secret, role: opts.role, emailAddress: opts.email ?? null }),
  );
  printJson({ id: user.id, principal_name: user.principalName, role: opts.role });
}

export async function listUsers(): Promise<void> {
  await withServices(async (s) => {
    const users = await s.identity.listUsers();
    const roles = await s.identity.rolesOf(users.map((u) => u.id));
    for (const u of users) {
      printJson({
        id: u.id,
        principal_name: u.principalName,
        email_address: u.emailAddress,
        is_disabled: u.isDisabled,
        last_login: u.lastLogin,
        roles: (roles.get(u.id) ?? []).map((r) => r.name),
      });
    }
  });
}

export async function setPassword(name: string, opts: { password?: string; expire?: boolean }): Promise<void> {
  const secret = password(opts);
  await withServices(async (s) =>
    s.accounts.setSecret(operator(), await userId(s, name), { secret, needsPasswordReset: opts.expire ?? false }),
  );
  printJson({ principal_name: name, password: 'changed', sessions: 'ended' });
}

export async function userAction(verb: 'disable' | 'enable' | 'delete' | 'end-sessions', name: string): Promise<void> {
  const op = operator();
  await withServices(async (s) => {
    const id = await userId(s, name);
    if (verb === 'delete') {
      await s.accounts.delete(op, id);
      printJson({ principal_name: name, deleted: true });
    } else if (verb === 'end-sessions') {
      printJson({ principal_name: name, sessions_ended: await s.accounts.endSessions(op, id) });
    } else {
      await s.accounts.setDisabled(op, id, verb === 'disable');
      printJson({ principal_name: name, is_disabled: verb === 'disable' });
    }
  });
}

export async function linkSso(name: string, opts: { provider?: string; unlink?: boolean }): Promise<void> {
  if (!opts.provider && !opts.unlink) throw new UsageError('give --provider <slug|id>, or --unlink');
  const r = await withServices(async (s) => s.accounts.linkSso(operator(), await userId(s, name), opts.unlink ? null : opts.provider!));
  printJson({ principal_name: name, sso_provider_id: r.providerId });
}

export async function createToken(opts: { user: string; name?: string; json?: boolean }): Promise<void> {
  const token = await withServices(async (s) => s.tokens.create(await s.identity.principalByName(opts.user), { name: opts.name ?? null }));
  const out = { id: token.id, key: token.key, user_id: token.userId };
  if (opts.json) printJson(out);
  else process.stdout.write(`token id:  ${out.id}\ntoken key: ${out.key}\n(the key is shown only now)\n`);
}

/** Exits 1 when some stored secret could not be opened with the keys at hand. */
export async function rotateSecrets(opts: { prune?: boolean }): Promise<void> {
  const ctx = commandContext();
  const { config } = ctx;
  // The new key is put first; resealAll then seals every row (plain ones too) with it.
  const result = await withServices(async (s) => {
    // Rotating from a key that is not the servers' would seal everything under a key they cannot read.
    await s.identity.checkSecrets();
    const key = config.secretKey ? s.secrets.keyring.currentId : rotateKeyFile(config.dataDir);
    const r = await s.secrets.resealAll();
    const pruned = !config.secretKey && opts.prune && r.unreadable === 0;
    if (pruned) pruneKeyFile(config.dataDir);
    return { key, ...r, pruned: !!pruned, source: s.secrets.keyring.origin };
  }, ctx);
  printJson(result);
  if (result.unreadable) process.exitCode = 1;
}
