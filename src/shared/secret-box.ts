// Secrets at rest: values the service must read back in clear (webhook signing secrets, OAuth client
// secrets) are stored sealed with AES-256-GCM under ENCRYPTION_KEY. Pure: no I/O, no settings; the
// entry files build one box from the keys (see encryption-keys.ts) and pass it in.
//
// A sealed value is text, so it fits the same `text` column as before:
//   enc:v1:<key id>:<base64url(12-byte IV | 16-byte tag | ciphertext)>
// The key id (a hash of the key, not the key) says which key sealed it, so during a key rotation the
// box opens values under the previous key too while sealing only under the current one. The purpose
// (say "webhook-signing-secret") is authenticated data: a value sealed for one purpose cannot be
// opened as another.
//
// The same keys also tag values the server hands out and must recognise when they come back
// (pagination cursors): HMAC-SHA256 under a key derived from each encryption key (HKDF), never the
// encryption key itself, so no new setting is needed and every server sharing ENCRYPTION_KEY accepts
// the others' tags.
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

export class EncryptionKeyError extends Error {
  override name = 'EncryptionKeyError';
}

export interface SecretBox {
  /** Seals under the current key. */
  seal(plain: string, purpose: string): string;
  /** Opens a sealed value under whichever known key sealed it; a value stored before encryption (not sealed) is returned as is. */
  open(stored: string, purpose: string): string;
  isSealed(stored: string): boolean;
  /** True when the value is sealed under the current key (nothing to re-encrypt). */
  isCurrent(stored: string): boolean;
  /** Id of the current key, as written in sealed values. */
  readonly currentKeyId: string;
  /** A MAC of `data` for `purpose` (base64url, 128 bits) under the current key. */
  tag(data: string, purpose: string): string;
  /** Whether `tag` is `data`'s tag for `purpose` under any known key (current or previous). */
  checkTag(data: string, tag: string, purpose: string): boolean;
}

/** 32 random bytes in base64: a value for ENCRYPTION_KEY. */
export function generateEncryptionKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

/** Reads a key written as base64 (44 characters) or hex (64 characters) of 32 bytes. */
export function parseEncryptionKey(text: string, name = 'ENCRYPTION_KEY'): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES || (!/^[0-9a-fA-F]{64}$/.test(trimmed) && key.toString('base64') !== trimmed)) {
    throw new EncryptionKeyError(`${name} must be 32 bytes in base64 (44 characters) or hex (64 characters)`);
  }
  return key;
}

/** Bytes of a tag: 128 bits, far past guessing, and short in a URL. */
const TAG_LENGTH = 16;

/**
 * The MAC key of an encryption key: derived, so a tag never exposes anything about the key that
 * seals. A KeyObject, made once: createHmac with a Buffer imports the key again on every call
 * (several times the cost of the MAC itself).
 */
function macKey(key: Buffer): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'recruiting-api mac key', 32)));
}

function macOf(key: KeyObject, data: string, purpose: string): Buffer {
  return createHmac('sha256', key).update(`${purpose}\0${data}`).digest().subarray(0, TAG_LENGTH);
}

function keyId(key: Buffer): string {
  return createHash('sha256').update('recruiting-api encryption key id\0').update(key).digest('hex').slice(0, 12);
}

export function createSecretBox(current: Buffer, previous: readonly Buffer[] = []): SecretBox {
  for (const key of [current, ...previous]) {
    if (key.length !== KEY_BYTES) throw new EncryptionKeyError('an encryption key must be 32 bytes');
  }
  const currentId = keyId(current);
  const keys = new Map<string, Buffer>();
  for (const key of [...previous, current]) keys.set(keyId(key), key);
  const currentMac = macKey(current);
  const macKeys = [currentMac, ...previous.map(macKey)];

  return {
    currentKeyId: currentId,
    seal(plain, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(purpose));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const sealed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
      return `${PREFIX}${currentId}:${sealed}`;
    },
    open(stored, purpose) {
      if (!stored.startsWith(PREFIX)) return stored;
      const [id, data] = stored.slice(PREFIX.length).split(':');
      const key = id ? keys.get(id) : undefined;
      if (!key || !data) {
        throw new EncryptionKeyError(
          `a stored secret is sealed under key ${id ?? '?'}, which is neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS`,
        );
      }
      const bytes = Buffer.from(data, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new EncryptionKeyError(`a stored secret under key ${id} failed authentication (altered, or sealed for another purpose)`);
      }
    },
    tag: (data, purpose) => macOf(currentMac, data, purpose).toString('base64url'),
    checkTag(data, tag, purpose) {
      const given = Buffer.from(tag, 'base64url');
      // base64url decoding skips stray characters: only the exact encoding of a tag is one.
      if (given.length !== TAG_LENGTH || given.toString('base64url') !== tag) return false;
      return macKeys.some((key) => timingSafeEqual(macOf(key, data, purpose), given));
    },
    isSealed: (stored) => stored.startsWith(PREFIX),
    isCurrent: (stored) => stored.startsWith(`${PREFIX}${currentId}:`),
  };
}
