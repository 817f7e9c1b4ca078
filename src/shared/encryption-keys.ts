// Where the encryption key comes from: ENCRYPTION_KEY (and, during a key rotation,
// ENCRYPTION_KEY_PREVIOUS) when set, which production mode requires; otherwise, for a development
// install, a key generated on first use and kept in the data directory (file mode 0600), so
// `npm start` stays one command. Whoever copies the data directory (a backup) copies that key too.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { createSecretBox, generateEncryptionKey, parseEncryptionKey, type SecretBox } from './secret-box.ts';

export const KEY_FILE = 'encryption.key';
/** A key being rotated to: present only between the start and the end of `encryption-key rotate`. */
export const NEXT_KEY_FILE = 'encryption.key.next';

export type KeySource = { kind: 'setting' } | { kind: 'file'; path: string };

export interface LoadedKeys {
  box: SecretBox;
  source: KeySource;
}

function readKeyFile(path: string): Buffer {
  return parseEncryptionKey(readFileSync(path, 'utf8'), path);
}

/** Writes a new key file unless one exists (another process may have just written it). */
function ensureKeyFile(path: string): void {
  try {
    writeFileSync(path, `${generateEncryptionKey()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

export function loadEncryptionKeys(config: Pick<Config, 'encryptionKey' | 'dataDir'>): LoadedKeys {
  if (config.encryptionKey) {
    return { box: createSecretBox(config.encryptionKey.current, config.encryptionKey.previous), source: { kind: 'setting' } };
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const path = join(config.dataDir, KEY_FILE);
  ensureKeyFile(path);
  const nextPath = join(config.dataDir, NEXT_KEY_FILE);
  // An interrupted rotation may have sealed some values under the next key already: open both.
  const previous = existsSync(nextPath) ? [readKeyFile(nextPath)] : [];
  return { box: createSecretBox(readKeyFile(path), previous), source: { kind: 'file', path } };
}

/**
 * Rotation of the key file (development installs): the new key is written beside the old one
 * first, `reseal` re-encrypts everything under it, and only then does it replace the old key, so a
 * crash at any point leaves a key for every stored value.
 */
export async function rotateKeyFile(dataDir: string, reseal: (box: SecretBox) => Promise<number>): Promise<number> {
  const path = join(dataDir, KEY_FILE);
  const nextPath = join(dataDir, NEXT_KEY_FILE);
  ensureKeyFile(nextPath); // an interrupted rotation is finished with the key it started
  const oldKey = readKeyFile(path);
  const newKey = readKeyFile(nextPath);
  const count = await reseal(createSecretBox(newKey, [oldKey]));
  renameSync(nextPath, path);
  return count;
}
