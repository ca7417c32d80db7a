import { pruneKeyFile, rotateKeyFile } from '../auth/secret-box.js';
import type { UserSession } from '../auth/session.js';
import type { Config } from '../config.js';
import type { Services } from '../services/index.js';
import { parseCommand } from './args.js';

/** Thrown for a command line that does not parse; the CLI prints it with exit code 2. */
export class UsageError extends Error {}

export type WithServices = <T>(fn: (s: Services) => Promise<T>) => Promise<T>;

export const ACCOUNTS_USAGE = `  user create <name> --role <role> [--password <p>] [--email <e>]
                                          create a user (password from --password or GAS_USER_PASSWORD)
  user list                               list users (one JSON object a line)
  user passwd <name> [--password <p>] [--expire]
                                          set a password (GAS_USER_PASSWORD) and end the user's sessions
  user disable|enable <name>              disable (ending every session) or enable a user
  user delete <name>                      delete a user with their sessions and tokens
  user end-sessions <name>                end every session of a user
  user link-sso <name> --provider <slug|id> | --unlink
                                          let an SSO provider sign in a local user (or stop it)
  secrets rotate [--prune]                new server key (key file), re-seal every stored secret with it;
                                          with GAS_SECRET_KEY: re-seal under it (old key in GAS_SECRET_KEY_PREVIOUS)`;

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

const out = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');

async function userId(s: Services, name: string | undefined, usage: string): Promise<string> {
  if (!name) throw new UsageError(usage);
  return (await s.identity.principalByName(name)).userId;
}

export async function userCommand(rest: string[], withServices: WithServices): Promise<number> {
  const { positionals, values } = parseCommand(rest, { strings: ['role', 'password', 'email', 'provider'], flags: ['expire', 'unlink'] });
  const [sub, name] = positionals;
  const password = () => {
    const p = values.password ?? process.env.GAS_USER_PASSWORD;
    if (!p) throw new UsageError('give the password with --password or GAS_USER_PASSWORD');
    return p;
  };
  const op = operator();
  switch (sub) {
    case 'create': {
      if (!name || !values.role) throw new UsageError('gas user create <name> --role <role> [--password <p>]');
      const secret = password();
      const user = await withServices((s) =>
        s.identity.createUser({ principalName: name, password: secret, role: values.role!, emailAddress: values.email ?? null }),
      );
      out({ id: user.id, principal_name: user.principalName, role: values.role });
      return 0;
    }
    case 'list':
      await withServices(async (s) => {
        const users = await s.identity.listUsers();
        const roles = await s.identity.rolesOf(users.map((u) => u.id));
        for (const u of users) {
          out({
            id: u.id,
            principal_name: u.principalName,
            email_address: u.emailAddress,
            is_disabled: u.isDisabled,
            last_login: u.lastLogin,
            roles: (roles.get(u.id) ?? []).map((r) => r.name),
          });
        }
      });
      return 0;
    case 'passwd': {
      const usage = 'gas user passwd <name> [--password <p>] [--expire]';
      if (!name) throw new UsageError(usage);
      const secret = password();
      await withServices(async (s) =>
        s.accounts.setSecret(op, await userId(s, name, usage), { secret, needsPasswordReset: values.expire ?? false }),
      );
      out({ principal_name: name, password: 'changed', sessions: 'ended' });
      return 0;
    }
    case 'disable':
    case 'enable': {
      const usage = `gas user ${sub} <name>`;
      await withServices(async (s) => s.accounts.setDisabled(op, await userId(s, name, usage), sub === 'disable'));
      out({ principal_name: name, is_disabled: sub === 'disable' });
      return 0;
    }
    case 'delete': {
      await withServices(async (s) => s.accounts.delete(op, await userId(s, name, 'gas user delete <name>')));
      out({ principal_name: name, deleted: true });
      return 0;
    }
    case 'end-sessions': {
      const ended = await withServices(async (s) => s.accounts.endSessions(op, await userId(s, name, 'gas user end-sessions <name>')));
      out({ principal_name: name, sessions_ended: ended });
      return 0;
    }
    case 'link-sso': {
      const usage = 'gas user link-sso <name> --provider <slug|id> | --unlink';
      if (!name || (!values.provider && !values.unlink)) throw new UsageError(usage);
      const r = await withServices(async (s) =>
        s.accounts.linkSso(op, await userId(s, name, usage), values.unlink ? null : values.provider!),
      );
      out({ principal_name: name, sso_provider_id: r.providerId });
      return 0;
    }
    default:
      throw new UsageError(`gas user create|list|passwd|disable|enable|delete|end-sessions|link-sso …\n\n${ACCOUNTS_USAGE}`);
  }
}

export async function secretsCommand(rest: string[], config: Config, withServices: WithServices): Promise<number> {
  const { positionals, values } = parseCommand(rest, { flags: ['prune'] });
  if (positionals[0] !== 'rotate') throw new UsageError('gas secrets rotate [--prune]');
  // The new key is put first; resealAll then seals every row (plain ones too) with it.
  const result = await withServices(async (s) => {
    // Rotating from a key that is not the servers' would seal everything under a key they cannot read.
    await s.identity.checkSecrets();
    const key = config.secretKey ? s.secrets.keyring.currentId : rotateKeyFile(config.dataDir);
    const r = await s.secrets.resealAll();
    const pruned = !config.secretKey && values.prune && r.unreadable === 0;
    if (pruned) pruneKeyFile(config.dataDir);
    return { key, ...r, pruned: !!pruned, source: s.secrets.keyring.origin };
  });
  out(result);
  return result.unreadable ? 1 : 0;
}
