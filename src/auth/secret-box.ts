import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Encryption at rest for the secrets the server must read back in clear (API token keys: HMAC is symmetric; the
 * JWT signing key). AES-256-GCM with a server key that never enters the database: GAS_SECRET_KEY, else a key
 * file in DATA_DIR created with mode 0600. A sealed value reads `gas1:<key id>:<iv>:<tag>:<ciphertext>` (base64url
 * parts); the key id (8 hex of SHA-256 of the key) says which key opens it, so rotation can proceed row by row
 * while older keys are still listed.
 */
export const SEALED_PREFIX = 'gas1:';
export const KEY_FILE_NAME = 'secret.key';

export interface KeyringSource {
  /** GAS_SECRET_KEY: 32 bytes as base64 or 64 hex digits. */
  envKey?: string;
  /** GAS_SECRET_KEY_PREVIOUS: keys that still open older values during a rotation, comma-separated. */
  envPrevious?: string;
  /** Where the key file lives when there is no GAS_SECRET_KEY. */
  dataDir: string;
}

interface Key {
  id: string;
  bytes: Buffer;
}

export class SecretBoxError extends Error {}

const keyId = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 8);

/** Parses a key given as base64 (44 characters) or hex (64 digits); it must be exactly 32 bytes. */
export function parseKey(text: string, what: string): Buffer {
  const t = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (bytes.length !== 32) throw new SecretBoxError(`${what} must be 32 bytes, as base64 or 64 hex digits (try: openssl rand -base64 32).`);
  return bytes;
}

export const newKeyText = () => crypto.randomBytes(32).toString('base64');

export const keyFilePath = (dataDir: string) => path.join(dataDir, KEY_FILE_NAME);

/** Reads the key file (first line: current key, the others: previous keys), creating it (0600) when absent. */
function readKeyFile(dataDir: string): Buffer[] {
  const file = keyFilePath(dataDir);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      // 'wx': another process (a replica, a CLI) that wins the race keeps its key; we then read theirs.
      fs.writeFileSync(file, newKeyText() + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const mode = fs.statSync(file).mode & 0o077;
  if (mode !== 0)
    throw new SecretBoxError(`${file} is readable by other users (mode ${(fs.statSync(file).mode & 0o777).toString(8)}); chmod 600 it.`);
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (!lines.length) throw new SecretBoxError(`${file} holds no key.`);
  return lines.map((l, i) => parseKey(l, `${file} line ${i + 1}`));
}

/** The server's keys: one current key that seals, any number of previous keys that still open. */
export class Keyring {
  private keys: Key[] = [];
  /** The key file's mtime at the last read, so a rotation made by another process is noticed before sealing. */
  private fileMtimeMs = 0;

  /** Keys are read on first use, so a command that needs no secret neither needs nor creates the key file. */
  constructor(private readonly source: KeyringSource) {}

  private ensure(): void {
    if (!this.keys.length) this.load();
  }

  /** Where the current key comes from, for messages. */
  get origin(): string {
    return this.source.envKey ? 'GAS_SECRET_KEY' : keyFilePath(this.source.dataDir);
  }

  get currentId(): string {
    this.ensure();
    return this.keys[0]!.id;
  }

  /** Re-reads the keys (after `gas secrets rotate` changed the key file). */
  load(): void {
    const raw = this.source.envKey
      ? [
          parseKey(this.source.envKey, 'GAS_SECRET_KEY'),
          ...(this.source.envPrevious ?? '')
            .split(',')
            .filter((s) => s.trim())
            .map((s) => parseKey(s, 'GAS_SECRET_KEY_PREVIOUS')),
        ]
      : readKeyFile(this.source.dataDir);
    if (!this.source.envKey) this.fileMtimeMs = fs.statSync(keyFilePath(this.source.dataDir)).mtimeMs;
    this.keys = raw.map((bytes) => ({ id: keyId(bytes), bytes }));
  }

  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX);
  }

  /** Encrypts with the current key. `aad` binds the value to its row (a sealed key moved to another row will not open). */
  seal(plain: string, aad: string): string {
    this.ensure();
    if (!this.source.envKey && fs.statSync(keyFilePath(this.source.dataDir)).mtimeMs !== this.fileMtimeMs) this.load();
    const key = this.keys[0]!;
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key.bytes, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return (
      SEALED_PREFIX + [key.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join(':')
    );
  }

  /** Decrypts a sealed value; a key id we do not know makes us re-read the key file once (a rotation elsewhere). */
  open(sealed: string, aad: string): string {
    const parts = sealed.slice(SEALED_PREFIX.length).split(':');
    if (!Keyring.isSealed(sealed) || parts.length !== 4) throw new SecretBoxError('The stored secret is not in the sealed format.');
    const [id, iv, tag, ct] = parts as [string, string, string, string];
    this.ensure();
    let key = this.keys.find((k) => k.id === id);
    if (!key) {
      this.load();
      key = this.keys.find((k) => k.id === id);
    }
    if (!key) throw new SecretBoxError(`The stored secret was sealed with key ${id}, which ${this.origin} does not hold.`);
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`The stored secret did not open with key ${id} (tampered with, or moved from another row).`);
    }
  }

  /** Whether a sealed value needs re-sealing with the current key. */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`${SEALED_PREFIX}${this.currentId}:`);
  }
}

/**
 * Rotation with a key file: a new key goes first, the old ones stay below it so running servers and replicas that
 * share the file keep opening older values until every row is re-sealed; `prune` then drops the old lines.
 */
export function rotateKeyFile(dataDir: string): string {
  const file = keyFilePath(dataDir);
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
  const fresh = newKeyText();
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, [fresh, old].filter(Boolean).join('\n') + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
  return keyId(parseKey(fresh, 'new key'));
}

/** Keeps only the current (first) key in the key file, once no row needs the older ones. */
export function pruneKeyFile(dataDir: string): void {
  const file = keyFilePath(dataDir);
  const first = fs.readFileSync(file, 'utf8').trim().split('\n')[0]!;
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, first + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}
