import { Keyring } from '../../auth/secret-box.js';
import type { SecretsStore } from '../../db/stores/identity/secrets-store.js';
import type { TokensStore } from '../../db/stores/identity/tokens-store.js';
import type { Logger } from '../../logger.js';
import { tokenKeyAad } from './tokens.js';
import type { MfaStore } from '../../db/stores/identity/mfa-store.js';
import { mfaSecretAad } from './mfa.js';
import type { OidcStore } from '../../db/stores/identity/oidc-store.js';
import type { SsoStore } from '../../db/stores/identity/sso-store.js';
import { oidcSecretAad } from './oidc.js';
import { spKeyAad } from './saml-sp-keys.js';

/** Associated data of a sealed app secret: the value opens only under its own name. */
export const appSecretAad = (name: string) => `app_secrets.value:${name}`;

export interface SecretsDeps {
  tokens: TokensStore;
  secrets: SecretsStore;
  /** TOTP secrets of users with MFA. */
  mfa?: MfaStore;
  /** OIDC client secrets. */
  oidc?: Pick<OidcStore, 'secrets'>;
  /** SAML SP private keys. */
  sso?: Pick<SsoStore, 'spKeys'>;
  keyring: Keyring;
  log: Logger;
}

export interface ResealResult {
  /** Plain rows (from before sealing) now sealed. */
  sealed: number;
  /** Rows sealed with an older key now sealed with the current one. */
  resealed: number;
  /** Rows already sealed with the current key. */
  current: number;
  /** Rows that no known key opens (tampered with, or sealed under a lost key); left as they are. */
  unreadable: number;
}

/**
 * Keeps the stored secrets sealed with the current server key: seals plain rows (written before migration 0008)
 * at every start, and re-seals every row after a key rotation. Each row is replaced only if it is unchanged since
 * read, so replicas doing the same at once do no harm.
 */
export function createSecretsService(deps: SecretsDeps) {
  const { keyring } = deps;

  async function reseal(all: boolean): Promise<ResealResult> {
    if (all) keyring.load();
    const result: ResealResult = { sealed: 0, resealed: 0, current: 0, unreadable: 0 };
    const rows = [
      ...(await deps.tokens.allKeys()).map((r) => ({
        value: r.key,
        aad: tokenKeyAad(r.id),
        set: (v: string) => deps.tokens.setKey(r.id, r.key, v),
      })),
      ...(await deps.secrets.all()).map((r) => ({
        value: r.value,
        aad: appSecretAad(r.name),
        set: (v: string) => deps.secrets.set(r.name, r.value, v),
      })),
      ...(deps.mfa ? await deps.mfa.all() : []).map((r) => ({
        value: r.secret,
        aad: mfaSecretAad(r.user_id),
        set: (v: string) => deps.mfa!.set(r.user_id, r.secret, v),
      })),
      ...(deps.oidc ? await deps.oidc.secrets.all() : [])
        .filter((r) => r.client_secret !== null)
        .map((r) => ({
          value: r.client_secret,
          aad: oidcSecretAad(r.id),
          set: (v: string) => deps.oidc!.secrets.set(r.id, r.client_secret, v),
        })),
      ...(deps.sso ? await deps.sso.spKeys.all() : [])
        .filter((r) => r.sp_private_key !== null)
        .map((r) => ({
          value: r.sp_private_key,
          aad: spKeyAad(r.id),
          set: (v: string) => deps.sso!.spKeys.set(r.id, r.sp_private_key, v),
        })),
    ];
    for (const row of rows) {
      if (!Keyring.isSealed(row.value)) {
        if (await row.set(keyring.seal(row.value, row.aad))) result.sealed++;
      } else if (!keyring.isCurrent(row.value) && all) {
        let plain: string;
        try {
          plain = keyring.open(row.value, row.aad);
        } catch (err) {
          deps.log.warn({ err: (err as Error).message }, 'a stored secret does not open; left as it is');
          result.unreadable++;
          continue;
        }
        if (await row.set(keyring.seal(plain, row.aad))) result.resealed++;
      } else result.current++;
    }
    if (result.sealed || result.resealed) deps.log.info({ ...result, key: keyring.currentId }, 'stored secrets sealed with the server key');
    return result;
  }

  return {
    keyring,
    /** At start: seal rows stored in clear. */
    sealPlain: () => reseal(false),
    /** After a rotation: seal everything with the current key. */
    resealAll: () => reseal(true),
  };
}

export type SecretsService = ReturnType<typeof createSecretsService>;
