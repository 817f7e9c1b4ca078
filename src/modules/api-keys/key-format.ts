// API key format: "rk_live_" + 32 random base62 characters + a 6-character base62 CRC32 checksum
// of those 32, so secret scanners can recognise a real key offline and typos fail without a query.
import { hash, randomInt } from 'node:crypto';

const PREFIX = 'rk_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const KEY_PREFIX_LENGTH = 12;
const KEY_PATTERN = new RegExp(`^${PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

export function generateApiKey(): string {
  let random = '';
  // randomInt is uniform (no modulo bias).
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  return PREFIX + random + base62(crc32(random), CHECKSUM_LENGTH);
}

/** True when the text has the shape of a key and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const random = key.slice(PREFIX.length, PREFIX.length + RANDOM_LENGTH);
  return key.slice(PREFIX.length + RANDOM_LENGTH) === base62(crc32(random), CHECKSUM_LENGTH);
}

/** SHA-256, hex. One-shot `hash` (every request hashes its key): a third of createHash's time. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}
