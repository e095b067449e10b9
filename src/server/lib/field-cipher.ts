/**
 * Credentials a customer hands us (a desk's write-only fields, such as the target page's password) are sealed at
 * rest with AES-256-GCM (decision 021). A sealed value is one string:
 *
 *     enc:v1:<key id>:<iv>:<ciphertext>:<tag>        (iv, ciphertext and tag in base64url)
 *
 * The key id is derived from the key (never the key itself), so a value sealed under an earlier key is told apart
 * without trying to open it. The additional authenticated data binds the value to where it belongs (the owner and
 * the field), so a sealed value copied to another request or field does not open. Opening never says more than
 * why it failed (unknown key, tampered, malformed): no key, ciphertext or plain text in an error.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PREFIX = 'enc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;

export type UnsealFailure = 'unknownKey' | 'tampered' | 'malformed';

export class UnsealError extends Error {
  constructor(readonly reason: UnsealFailure) {
    super(`sealed value cannot be opened: ${reason}`);
  }
}

/** 32 bytes from 64 hex digits or base64/base64url; null when the text is neither. */
export function parseFieldKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  return null;
}

const keyIdOf = (key: Buffer) =>
  createHash('sha256').update('arzpay field key id\0').update(key).digest('base64url').slice(0, 10);

export class FieldCipher {
  readonly keyId: string;
  private readonly keys = new Map<string, Buffer>();
  private readonly hashKey: Buffer;

  /** `current` seals; it and each of `previous` open (rotation: see decision 021). */
  constructor(current: Buffer, previous: Buffer[] = []) {
    if (current.length !== KEY_BYTES) throw new Error('a field key is 32 bytes');
    this.keyId = keyIdOf(current);
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new Error('a field key is 32 bytes');
      if (!this.keys.has(keyIdOf(key))) this.keys.set(keyIdOf(key), key);
    }
    this.hashKey = Buffer.from(hkdfSync('sha256', current, Buffer.alloc(0), 'arzpay request hash', KEY_BYTES));
  }

  static isSealed(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(PREFIX);
  }

  /** Whether `value` is sealed under the current key (nothing to re-seal). */
  isCurrent(value: unknown): boolean {
    return FieldCipher.isSealed(value) && value.startsWith(`${PREFIX}${this.keyId}:`);
  }

  /** Whether some key this process holds can open `value` (it may still be tampered with). */
  canOpen(value: string): boolean {
    return this.keys.has(value.slice(PREFIX.length).split(':', 1)[0] ?? '');
  }

  seal(plain: string, context: string): string {
    const key = this.keys.get(this.keyId)!;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url'));
    return `${PREFIX}${this.keyId}:${parts.join(':')}`;
  }

  open(sealed: string, context: string): string {
    if (!FieldCipher.isSealed(sealed)) throw new UnsealError('malformed');
    const parts = sealed.slice(PREFIX.length).split(':');
    if (parts.length !== 4) throw new UnsealError('malformed');
    const [keyId, iv, body, tag] = parts as [string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key) throw new UnsealError('unknownKey');
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== 16) throw new UnsealError('malformed');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, ivBytes);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new UnsealError('tampered');
    }
  }

  /**
   * A keyed hash (HMAC-SHA-256 under a key derived from the field key) for values that may hold a credential,
   * such as an idempotent request's body: a plain hash of a short password is guessed offline.
   */
  keyedHash(value: string): string {
    return createHmac('sha256', this.hashKey).update(value).digest('hex');
  }

  /**
   * A signing secret derived from the current field key (decision 031): the quote and storage-URL signing keys live
   * nowhere, so a backup without the field key (`--with-key`) holds nothing that signs. Rotating the field key
   * changes them: quotes and signed addresses in flight stop verifying, as when they expire.
   */
  /**
   * What `user_cards.card_hash` keeps of a card number (decision 031): HMAC-SHA-256 under a key derived from the current
   * field key, tagged with that key's id. A plain SHA-256 beside the first six and last four digits leaves about
   * 10⁵ candidates: a backup's holder recovered the number in seconds. Rotating the key re-hashes (cards/reseal.ts).
   */
  cardHash(cardNumber: string): string {
    const key = hkdfSync('sha256', this.keys.get(this.keyId)!, Buffer.alloc(0), 'arzpay card hash', KEY_BYTES);
    const mac = createHmac('sha256', Buffer.from(key)).update(cardNumber).digest('hex').toUpperCase();
    return `k:${this.keyId}:${mac}`;
  }

  signingSecret(purpose: 'quoteSigning' | 'storageSigning'): string {
    const current = this.keys.get(this.keyId)!;
    return Buffer.from(hkdfSync('sha256', current, Buffer.alloc(0), `arzpay ${purpose}`, 48)).toString('base64url');
  }
}

/** The additional authenticated data of a request's sealed field. */
export const purchaseFieldContext = (userId: number, field: string) => `purchase-field:${userId}:${field}`;

export const KEY_FILE_NAME = 'field-encryption.key';

/**
 * The key in DATA_DIR/field-encryption.key, created (random, owner-only 0600) when missing. `created` says whether
 * this start made it, so the caller says so once. A file readable by others is narrowed to 0600.
 */
export function keyFromDataDir(dataDir: string): { key: Buffer; file: string; created: boolean } {
  const file = path.join(dataDir, KEY_FILE_NAME);
  try {
    const key = randomBytes(KEY_BYTES);
    writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return { key, file, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = parseFieldKey(readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a 32-byte key (64 hex digits)`);
  return { key, file, created: false };
}
