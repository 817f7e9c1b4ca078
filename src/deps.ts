// The composition root: every dependency with a life of its own (database, clock, logger,
// translator, webhook transport, rate-limit store, social sign-in connectors, the API-key cache,
// the Idempotency-Key fence, the authorization server) is built here, once per process, and handed
// to the app, the worker loops and the CLI commands. Nothing else constructs them, and no module
// keeps state of its own; services receive what they need through the ServiceContext (`deps.ctx`).
import type { Logger } from 'pino';
import { createLogger } from './shared/logger.ts';
import { createMetrics, type Metrics } from './shared/metrics.ts';
import { createLibreTranslateTranslator } from './adapters/translation/libretranslate.ts';
import type { Translator } from './adapters/translation/translator.ts';
import { DirectoryFileStore } from './adapters/file-store/directory.ts';
import type { FileStore } from './adapters/file-store/file-store.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { startDatabase } from './db/start.ts';
import { IdempotencyFence } from './http/idempotency.ts';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './http/rate-limit-store.ts';
import { createApiKeyCache } from './modules/api-keys/service.ts';
import { loadOidcKeys } from './modules/oauth/keys.ts';
import { buildProvider } from './modules/oauth/provider.ts';
import type { Identity } from './modules/oauth/service.ts';
import { socialSignInMethods } from './modules/social/service.ts';
import { createGuardedDownloader, createWebhookTransport, type WebhookTransport } from './modules/webhooks/transport.ts';
import { createCaptchaVerifier } from './modules/boards/captcha.ts';

import { systemClock, type Clock } from './shared/clock.ts';
import { loadEncryptionKeys } from './shared/encryption-keys.ts';
import type { SecretBox } from './shared/secret-box.ts';
import type { ServiceContext } from './shared/context.ts';
import { buildSocialConnectors, type SocialConnectors } from './modules/social/connectors.ts';
import { SearchTotals } from './modules/candidates/search-totals.ts';

export interface Deps {
  config: Config;
  database: Database;
  clock: Clock;
  /** Seals and opens secrets kept at rest (ENCRYPTION_KEY, or the key file in DATA_DIR). */
  secrets: SecretBox;
  /** pino: JSON lines, pretty on a terminal; secrets redacted and e-mails masked (shared/logger.ts). */
  log: Logger;
  /** The process's Prometheus registry (shared/metrics.ts). */
  metrics: Metrics;
  /** Machine translation (TRANSLATOR_URL); undefined: none configured. */
  translator: Translator | undefined;
  webhookTransport: WebhookTransport;
  /** Uploaded files' bytes (FILE_STORE): a directory, or S3-compatible storage. */
  fileStore: FileStore;
  rateLimitStore: RateLimitStore;
  /** Social sign-in clients (Google, LinkedIn, Facebook) from config.social: one per configured provider. */
  socialConnectors: SocialConnectors;
  /** Commits an Idempotency-Key claim with the change its request makes (http/idempotency.ts); in `ctx` too. */
  idempotencyFence: IdempotencyFence;
  /**
   * The authorization server (oidc-provider, its keys loaded or generated) and the sign-in methods
   * it offers: built at the first call (the API server's start) and the same ever after. The worker
   * and the CLI never ask for it, so they never load the keys.
   */
  identity(): Promise<Identity>;
  /** What services are called with. */
  ctx: ServiceContext;
  /** Closes what buildDeps opened (a database passed in stays open: its owner closes it). */
  close(): Promise<void>;
}

/** Replacements for tests: a test database, a clock they can move, a fake translator. */
export type DepsOverrides = Partial<Pick<Deps, 'database' | 'clock' | 'secrets' | 'log' | 'metrics' | 'translator' | 'fileStore' | 'webhookTransport' | 'rateLimitStore' | 'socialConnectors'>>;

/** The translator the configuration switches on, or undefined when none is configured. */
export function translatorFromConfig(config: Pick<Config, 'translatorUrl' | 'translatorApiKey'>): Translator | undefined {
  if (!config.translatorUrl) return undefined;
  return createLibreTranslateTranslator({ url: config.translatorUrl, apiKey: config.translatorApiKey });
}

/**
 * The file store the configuration names. The S3 backend (and the AWS SDK, ~6 MB of heap that
 * every major collection then marks) is loaded only when it is the one configured.
 */
export async function fileStoreFromConfig(config: Pick<Config, 'fileStore'>): Promise<FileStore> {
  const settings = config.fileStore;
  if (settings.kind !== 's3') return new DirectoryFileStore(settings.dir);
  const { S3FileStore } = await import('./adapters/file-store/s3.ts');
  return new S3FileStore(settings);
}

/** A CAPTCHA provider's answer gets this long: a candidate is waiting for the form's answer. */
const CAPTCHA_TIMEOUT_MS = 5_000;

export async function buildDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  // Keys first: a missing or malformed key stops the start before the database is touched.
  const secrets = overrides.secrets ?? loadEncryptionKeys(config).box;
  const database = overrides.database ?? (await startDatabase(config));
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? createLogger(config, 'api');
  const metrics = overrides.metrics ?? createMetrics({ process: 'api' });
  const translator = 'translator' in overrides ? overrides.translator : translatorFromConfig(config);
  const webhookTransport = overrides.webhookTransport ?? createWebhookTransport({ allowLocal: config.webhookAllowLocal });
  const fileStore = overrides.fileStore ?? (await fileStoreFromConfig(config));
  const rateLimitStore =
    overrides.rateLimitStore ?? (config.redisUrl
      ? new RedisRateLimitStore(config.redisUrl, { retryMs: config.redisBreakerMs, log })
      : new MemoryRateLimitStore());
  const socialConnectors = overrides.socialConnectors ?? buildSocialConnectors(config.social);
  const idempotencyFence = new IdempotencyFence(clock);
  // Files given as a URL are fetched through the webhooks' address guard (WEBHOOK_ALLOW_LOCAL alike).
  const urlDownloader = createGuardedDownloader({ allowLocal: config.webhookAllowLocal });
  // The job board's CAPTCHA check: its own guarded transport with a short deadline (a candidate waits on it).
  const captchaTransport = config.captcha
    ? createWebhookTransport({ allowLocal: config.webhookAllowLocal, timeoutMs: CAPTCHA_TIMEOUT_MS, userAgent: 'Recruiting-JobBoard/1.0' })
    : undefined;
  const captcha =
    config.captcha && captchaTransport
      ? createCaptchaVerifier({ ...config.captcha, post: (url, headers, body) => captchaTransport.send(url, headers, body) })
      : undefined;
  const ctx: ServiceContext = {
    db: database.db,
    clock,
    secrets,
    translator,
    translatorLanguages: config.translatorLanguages,
    fileStore,
    urlDownloader,
    captcha,
    notifications: database,
    fence: idempotencyFence,
    apiKeyCache: createApiKeyCache(database),
    candidateSearchTotals: new SearchTotals(),
  };
  let identity: Promise<Identity> | undefined;
  const buildIdentity = async (): Promise<Identity> => {
    // Keys come from the settings or the database (generated on the very first start), shared by every server.
    const keys = await loadOidcKeys(ctx, config);
    return { provider: buildProvider(ctx, { baseUrl: config.baseUrl }, keys), signInMethods: socialSignInMethods(socialConnectors) };
  };
  let closed = false;
  return {
    config,
    database,
    clock,
    secrets,
    log,
    metrics,
    translator,
    webhookTransport,
    fileStore,
    rateLimitStore,
    socialConnectors,
    idempotencyFence,
    identity: () => (identity ??= buildIdentity()),
    ctx,
    async close() {
      if (closed) return;
      closed = true;
      if (!overrides.webhookTransport) await webhookTransport.close();
      await urlDownloader.close();
      await captchaTransport?.close();
      if (!overrides.rateLimitStore) await rateLimitStore.close();
      if (!overrides.fileStore) await fileStore.close();
      if (!overrides.metrics) metrics.close();
      if (!overrides.database) await database.close();
    },
  };
}
