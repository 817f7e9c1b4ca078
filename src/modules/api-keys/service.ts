import { KeyCache, type Notifications } from './key-cache.ts';
import { randomUUID } from 'node:crypto';
import { NotFoundError, UnauthorizedError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import { withTransaction, type Principal, type ServiceContext } from '../../shared/context.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import { getCompany } from '../companies/service.ts';
import { generateApiKey, hashApiKey, isWellFormedApiKey, keyPrefixOf } from './key-format.ts';
import {
  findApiKey,
  findApiKeyByHash,
  insertApiKey,
  listApiKeysOfCompany,
  markApiKeyRevoked,
  touchApiKeyLastUsed,
  updateApiKeyLabel,
  type ApiKeyRow,
} from './repo.ts';
import { isScope } from './scopes.ts';

declare module '../../shared/context.ts' {
  interface ServiceContext {
    /** The process's cache of API keys (createApiKeyCache, built once in src/deps.ts); none: every key is read from the database. */
    apiKeyCache?: ApiKeyCache | undefined;
  }
}

export type ApiKeyCache = KeyCache<ApiKeyRow>;

/** The cache of API keys by hash, dropped whenever any key changes (on every server: key-cache.ts). */
export function createApiKeyCache(notifications: Notifications): ApiKeyCache {
  return new KeyCache<ApiKeyRow>(notifications, 'api_keys_changed');
}

const DEFAULT_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;

export interface ApiKeyView {
  id: string;
  keyPrefix: string;
  label: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
  active: boolean;
  lastUsedAt: string | null;
}

export interface CreatedApiKey extends ApiKeyView {
  /** The full key: shown here once, never stored, never shown again. */
  rawKey: string;
}

export function toApiKeyView(row: ApiKeyRow, now: Date): ApiKeyView {
  return {
    id: row.id,
    keyPrefix: row.keyPrefix,
    label: row.label,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    active: row.revokedAt === null && row.expiresAt > now,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

function validateLabel(label: unknown): ErrorDetail | undefined {
  if (typeof label !== 'string' || label.trim().length < 1 || label.length > 100) {
    return { field: 'label', message: 'must be 1 to 100 characters' };
  }
  return undefined;
}

export interface CreateApiKeyInput {
  companyId: string;
  label: string;
  scopes: string[];
  expiresAt?: string | undefined;
}

/** `actor`: who the audit log names (none: the service itself, e.g. an operator's CLI command). */
export async function createApiKey(ctx: ServiceContext, input: CreateApiKeyInput, actor?: AuditActor): Promise<CreatedApiKey> {
  const now = ctx.clock.now();
  const details: ErrorDetail[] = [];
  const labelProblem = validateLabel(input.label);
  if (labelProblem) details.push(labelProblem);
  if (!Array.isArray(input.scopes) || input.scopes.length === 0) {
    details.push({ field: 'scopes', message: 'at least one scope is required' });
  } else {
    input.scopes.forEach((scope, index) => {
      if (!isScope(scope)) details.push({ field: `scopes[${index}]`, message: `unknown scope "${scope}"` });
    });
  }
  let expiresAt = new Date(now.getTime() + DEFAULT_LIFETIME_MS);
  if (input.expiresAt !== undefined) {
    expiresAt = new Date(input.expiresAt);
    if (Number.isNaN(expiresAt.getTime())) details.push({ field: 'expiresAt', message: 'must be an ISO 8601 timestamp' });
    else if (expiresAt <= now) details.push({ field: 'expiresAt', message: 'must be in the future' });
  }
  if (details.length > 0) throw new ValidationError(details);
  await getCompany(ctx, input.companyId); // NotFoundError('Company') for an unknown id

  const rawKey = generateApiKey();
  const row: ApiKeyRow = {
    id: randomUUID(),
    companyId: input.companyId,
    label: input.label.trim(),
    keyPrefix: keyPrefixOf(rawKey),
    keyHash: hashApiKey(rawKey),
    scopes: [...new Set(input.scopes)],
    createdAt: now,
    expiresAt,
    revokedAt: null,
    lastUsedAt: null,
  };
  await withTransaction(ctx, async (tx) => {
    await insertApiKey(tx.db, row);
    await recordAudit(tx, {
      companyId: row.companyId,
      actor,
      action: 'api_key.created',
      target: { id: row.id, label: row.label },
      detail: { scopes: row.scopes, expiresAt: expiresAt.toISOString() },
      occurredAt: now,
    });
  });
  return { ...toApiKeyView(row, now), rawKey };
}

export async function listApiKeys(ctx: ServiceContext, companyId: string): Promise<ApiKeyView[]> {
  const now = ctx.clock.now();
  return (await listApiKeysOfCompany(ctx.db, companyId)).map((row) => toApiKeyView(row, now));
}

/** companyId undefined: an operator acting across companies (the CLI). */
export async function revokeApiKey(ctx: ServiceContext, companyId: string | undefined, id: string, actor?: AuditActor): Promise<ApiKeyView> {
  const found = await findApiKey(ctx.db, companyId, id);
  if (!found) throw new NotFoundError('API key');
  // Answer once this process heard the revocation's notification: every listening server heard
  // it at the same commit, so the key already fails everywhere when the caller reads the answer.
  await ctx.apiKeyCache?.whenStarted();
  const heard = found.revokedAt === null ? ctx.apiKeyCache?.nextInvalidation(2_000) : undefined;
  const now = ctx.clock.now();
  const row = await withTransaction(ctx, async (tx) => {
    const revoked = await markApiKeyRevoked(tx.db, id, now);
    // Revoking twice is harmless, and recorded once.
    if (revoked && found.revokedAt === null) {
      await recordAudit(tx, { companyId: revoked.companyId, actor, action: 'api_key.revoked', target: { id, label: revoked.label }, occurredAt: now });
    }
    return revoked;
  });
  if (!row) throw new NotFoundError('API key');
  await heard;
  return toApiKeyView(row, ctx.clock.now());
}

/** companyId undefined: an operator acting across companies (the CLI). */
export async function relabelApiKey(
  ctx: ServiceContext,
  companyId: string | undefined,
  id: string,
  body: Record<string, unknown>,
  actor?: AuditActor,
): Promise<ApiKeyView> {
  if ('scopes' in body) throw ValidationError.field('scopes', 'scopes are immutable: revoke the key and create a new one');
  const labelProblem = validateLabel(body.label);
  if (labelProblem) throw new ValidationError([labelProblem]);
  const found = await findApiKey(ctx.db, companyId, id);
  if (!found) throw new NotFoundError('API key');
  const label = (body.label as string).trim();
  const now = ctx.clock.now();
  const row = await withTransaction(ctx, async (tx) => {
    const renamed = await updateApiKeyLabel(tx.db, id, label);
    if (renamed && found.label !== label) {
      await recordAudit(tx, { companyId: renamed.companyId, actor, action: 'api_key.renamed', target: { id, label }, detail: { previousLabel: found.label }, occurredAt: now });
    }
    return renamed;
  });
  if (!row) throw new NotFoundError('API key');
  return toApiKeyView(row, ctx.clock.now());
}

function startOfMinute(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
}

/** The SHA-256 (hex) of an API key: what is stored of it, and how it is looked up. */
export const apiKeyHash = hashApiKey;

/**
 * Resolves an X-API-Key header to the calling company (`keyHash`: its apiKeyHash, when the caller
 * has it already). Keys are cached per process (`ctx.apiKeyCache`, see key-cache.ts): any change to
 * a key is announced at its commit and drops every server's cache, so a revoked key fails on its
 * very next request on every server process.
 *
 * A key found in the cache whose use this minute is already recorded is answered synchronously (a
 * Principal, not a promise): that is nearly every request, and each promise and microtask turn on
 * that path showed in the authenticated request's cost. Errors are thrown either way.
 */
export function authenticateApiKey(
  ctx: ServiceContext,
  rawKey: string | undefined,
  keyHash: string | undefined = rawKey && hashApiKey(rawKey),
): Principal | Promise<Principal> {
  if (!rawKey || !keyHash) throw new UnauthorizedError('Missing API key: send it in the X-API-Key header');
  const now = ctx.clock.now();
  const cache = ctx.apiKeyCache;
  // A cached key was well formed when it was first read (its hash matched a stored key).
  const cached = cache?.get(keyHash, now.getTime());
  if (cached && cached.lastUsedAt !== null && cached.lastUsedAt >= startOfMinute(now)) return principalOfKey(cached, now);
  if (!cached && !isWellFormedApiKey(rawKey)) throw new UnauthorizedError('Invalid API key');
  return readAndTouchApiKey(ctx, cache, cached, keyHash, now);
}

async function readAndTouchApiKey(
  ctx: ServiceContext,
  cache: ApiKeyCache | undefined,
  cached: ApiKeyRow | undefined,
  hash: string,
  now: Date,
): Promise<Principal> {
  let row = cached;
  if (!row) {
    const generation = cache?.mark() ?? 0;
    row = await findApiKeyByHash(ctx.db, hash);
    if (row) cache?.set(hash, row, now.getTime(), generation);
  }
  if (!row) throw new UnauthorizedError('Invalid API key');
  const principal = principalOfKey(row, now);
  const minute = startOfMinute(now);
  if (row.lastUsedAt === null || row.lastUsedAt < minute) {
    await touchApiKeyLastUsed(ctx.db, row.id, minute);
    row.lastUsedAt = minute;
  }
  return principal;
}

function principalOfKey(row: ApiKeyRow, now: Date): Principal {
  if (row.revokedAt !== null) throw new UnauthorizedError('API key has been revoked');
  if (row.expiresAt <= now) throw new UnauthorizedError('API key has expired');
  return { companyId: row.companyId, scopes: row.scopes, apiKeyId: row.id };
}
