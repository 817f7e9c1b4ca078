// What every service needs from the outside world, passed explicitly so tests can control it.
import type { Db, NotificationListener } from '../db/client.ts';
import type { Translator } from '../adapters/translation/translator.ts';
import type { FileStore } from '../adapters/file-store/file-store.ts';
import type { Clock } from './clock.ts';
import type { SecretBox } from './secret-box.ts';

/**
 * Opens the transactions withTransaction runs work in, adding a check of its own inside each
 * before it commits (the Idempotency-Key fence: src/http/idempotency.ts).
 */
export interface TransactionFence {
  transaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T>;
}

/**
 * Modules that keep process-wide state (a cache) declare its member here by declaration merging
 * (`declare module '.../shared/context.ts'`); src/deps.ts builds it once per process.
 */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  /** Seals and opens secrets kept at rest (webhook signing secrets). */
  secrets: SecretBox;
  /** The configured machine translator (TRANSLATOR_URL); undefined: only stored translations are used. */
  translator?: Translator | undefined;
  /** Where uploaded files' bytes are kept (src/adapters/file-store); none: files cannot be stored. */
  fileStore?: FileStore | undefined;
  /** LISTEN/NOTIFY of the database (caches invalidated by commits, workers woken by them). */
  notifications?: { listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>> } | undefined;
  /** The languages listings are machine-translated into when their texts are written (TRANSLATOR_LANGUAGES). */
  translatorLanguages?: readonly string[] | undefined;
  /** Set inside withTransaction: `db` is that transaction, and a nested withTransaction joins it. */
  inTransaction?: true | undefined;
  /** Wraps every transaction withTransaction opens (built once in src/deps.ts); none: plain transactions. */
  fence?: TransactionFence | undefined;
}

/**
 * Runs `work` in one transaction: a new one, or the caller's when `ctx` is already inside one (so a
 * service of another module joins the caller's transaction through its context, never a bare `tx`).
 */
export async function withTransaction<T>(ctx: ServiceContext, work: (ctx: ServiceContext) => Promise<T>): Promise<T> {
  if (ctx.inTransaction) return work(ctx);
  const run = (tx: Db) => work({ ...ctx, db: tx, inTransaction: true });
  return ctx.fence ? ctx.fence.transaction(ctx.db, run) : ctx.db.transaction(run);
}

/** Who is calling: resolved by the auth plugin from an API key or a user's access token. */
export interface Principal {
  companyId: string;
  scopes: readonly string[];
  apiKeyId: string | null;
  /** Set for a user's access token: the user and their role in the company. */
  userId?: string;
  role?: 'ADMIN' | 'MEMBER';
  /** A token of the first-party dashboard (not of a third-party application). */
  firstParty?: boolean;
}
