// Token signing keys and cookie keys. From the settings when given (OIDC_JWKS_FILE, COOKIE_KEYS);
// otherwise generated on the first start and kept in the database (sealed), so restarts and every
// server on the database share them. Rotation adds a newer key in front: new tokens are signed with it,
// while the older ones stay published (and keep verifying) until they are rotated out.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { deleteKey, insertKey, listKeys, lockKeyGeneration, updateKeyMaterial, type OidcKeyRow } from './repo.ts';

/** Keys kept per kind: the current one and two before it, so tokens signed before a rotation verify. */
const KEPT_KEYS = 3;

export interface OidcKeys {
  /** Private signing keys, newest (the one used to sign) first. */
  jwks: { keys: Record<string, unknown>[] };
  /** Cookie signing keys, newest (the one used to sign) first. */
  cookieKeys: string[];
}

export interface KeySettings {
  oidcJwksFile: string | undefined;
  cookieKeys: string[] | undefined;
}

export class KeyFileError extends Error {}

function newSigningKey(createdAt: Date): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  // The kid says when the key was made: rotations read in order in the published JWKS.
  return { ...jwk, kid: `${createdAt.toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`, alg: 'RS256', use: 'sig' };
}

// Private keys are secrets at rest: sealed with the service's secret box (AES-256-GCM), each kind
// under its own purpose.
const purposeOf = (kind: OidcKeyRow['kind']) => `oidc-${kind}-key`;

function newKey(ctx: ServiceContext, kind: OidcKeyRow['kind'], createdAt: Date): OidcKeyRow {
  const material = kind === 'signing' ? newSigningKey(createdAt) : { secret: randomBytes(32).toString('base64url') };
  return { id: randomUUID(), kind, material: { sealed: ctx.secrets.seal(JSON.stringify(material), purposeOf(kind)) }, createdAt };
}

function openKey(ctx: ServiceContext, row: OidcKeyRow): Record<string, unknown> {
  return JSON.parse(ctx.secrets.open(String(row.material.sealed), purposeOf(row.kind))) as Record<string, unknown>;
}

function readJwksFile(path: string): { keys: Record<string, unknown>[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new KeyFileError(`OIDC_JWKS_FILE ${path} cannot be read as JSON: ${(error as Error).message}`);
  }
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((key) => key && typeof key === 'object' && 'd' in key)) {
    throw new KeyFileError(`OIDC_JWKS_FILE ${path} must be a JWKS ({ "keys": [...] }) of private keys`);
  }
  return { keys };
}

/** Reads the stored keys of one kind, generating the first one when there is none (once, under a lock). */
async function storedKeys(ctx: ServiceContext, kind: OidcKeyRow['kind']): Promise<Record<string, unknown>[]> {
  let rows = await listKeys(ctx.db, kind);
  if (rows.length === 0) {
    rows = await withTransaction(ctx, async ({ db: tx }) => {
      await lockKeyGeneration(tx);
      const again = await listKeys(tx, kind);
      if (again.length > 0) return again;
      const row = newKey(ctx, kind, ctx.clock.now());
      await insertKey(tx, row);
      return [row];
    });
  }
  return rows.map((row) => openKey(ctx, row));
}

export async function loadOidcKeys(ctx: ServiceContext, settings: KeySettings): Promise<OidcKeys> {
  const jwks = settings.oidcJwksFile
    ? readJwksFile(settings.oidcJwksFile)
    : { keys: await storedKeys(ctx, 'signing') };
  const cookieKeys = settings.cookieKeys ?? (await storedKeys(ctx, 'cookie')).map((material) => String(material.secret));
  return { jwks, cookieKeys };
}

export interface RotatedKeys {
  signingKeyId: string;
  keptSigningKeyIds: string[];
}

/**
 * Makes a new signing key and a new cookie key the current ones; keeps the two before each (so
 * tokens and cookies already out keep verifying) and deletes older ones. Servers use the new keys
 * from their next start.
 */
export async function rotateOidcKeys(ctx: ServiceContext): Promise<RotatedKeys> {
  return withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    await lockKeyGeneration(tx);
    const now = ctx.clock.now();
    for (const kind of ['signing', 'cookie'] as const) {
      await insertKey(tx, newKey(ctx, kind, now));
      const rows = await listKeys(tx, kind);
      for (const old of rows.slice(KEPT_KEYS)) await deleteKey(tx, old.id);
    }
    const signing = (await listKeys(tx, 'signing')).map((row) => openKey(txCtx, row));
    return {
      signingKeyId: String(signing[0].kid),
      keptSigningKeyIds: signing.map((key) => String(key.kid)),
    };
  });
}

/** Re-seals the stored keys under the box's current encryption key (encryption-key rotation); returns how many changed. */
export async function resealOidcKeys(ctx: ServiceContext, box: SecretBox = ctx.secrets): Promise<number> {
  let count = 0;
  for (const kind of ['signing', 'cookie'] as const) {
    for (const row of await listKeys(ctx.db, kind)) {
      const sealed = String(row.material.sealed);
      if (box.isCurrent(sealed)) continue;
      const plain = box.open(sealed, purposeOf(kind));
      await updateKeyMaterial(ctx.db, row.id, { sealed: box.seal(plain, purposeOf(kind)) });
      count++;
    }
  }
  return count;
}
