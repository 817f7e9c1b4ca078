// All settings come from the environment, are validated once at start, and are then passed
// around as a plain object: nothing reads process.env at request time.
import { isIP } from 'node:net';
import { join } from 'node:path';
import { EncryptionKeyError, parseEncryptionKey } from './shared/secret-box.ts';
import { normalizeLanguageTag } from './shared/language-tags.ts';

export type Mode = 'development' | 'production';

/** S3-compatible object storage (AWS S3, MinIO, R2, GCS interoperability). */
export interface S3StoreSettings {
  kind: 's3';
  bucket: string;
  /** Another service than AWS (MinIO, R2, GCS): its base URL; undefined: AWS S3 for `region`. */
  endpoint: string | undefined;
  region: string;
  /** Both or neither; neither: the SDK's default chain (environment, shared files, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Addresses objects as endpoint/bucket/key (what MinIO and most stand-ins need) instead of bucket.endpoint/key. */
  forcePathStyle: boolean;
  /** Put before every key ('' or ending in '/'), so several installations can share a bucket. */
  prefix: string;
  /** Bound on each S3 call: connecting, waiting for the answer, and any silence on the socket. */
  timeoutMs: number;
}

export type FileStoreSettings = { kind: 'directory'; dir: string } | S3StoreSettings;

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  /** Where uploaded files' bytes are kept (FILE_STORE): a directory (default DATA_DIR/files) or S3-compatible storage. */
  fileStore: FileStoreSettings;
  /** The largest file accepted, in bytes (FILE_MAX_BYTES, default 10 MB). */
  fileMaxBytes: number;
  /** PostgreSQL connection string; undefined means the embedded database (PGlite in dataDir). */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  mode: Mode;
  /** Allows http and loopback/private webhook addresses: tests and local development only. */
  webhookAllowLocal: boolean;
  /** Run webhook delivery inside the server process (default: with the embedded database only). */
  webhookWorkerInServer: boolean;
  /** How often an idle delivery worker looks for new events and due retries. */
  webhookPollMs: number;
  /** How long a worker holds a delivery it is sending before another worker may take it over. */
  webhookLeaseSeconds: number;
  /** Webhooks one worker sends at the same time. */
  webhookConcurrency: number;
  /** Deliveries of one subscription in flight at once, across all workers (fairness). */
  webhookSubscriptionConcurrency: number;
  /** Deliveries of one company in flight at once, across all workers (fairness; default half of webhookConcurrency). */
  webhookCompanyConcurrency: number;
  /** Failed attempts in a row after which a subscription's circuit opens (its deliveries wait, then one probe). */
  webhookCircuitFailures: number;
  /** How long an open circuit keeps a subscription's deliveries waiting before the probe. */
  webhookCircuitCooldownSeconds: number;
  /** Requests per minute per API key. */
  rateLimitPerMinute: number;
  /** How long an Idempotency-Key claim without an answer holds before a retry may take it over. */
  idempotencyLeaseSeconds: number;
  /** Failed authentications (401) per minute per client address before it gets 429. */
  authFailuresPerMinute: number;
  /** While Redis does not answer, how often the rate limiter asks it again (it counts in the process meanwhile). */
  redisBreakerMs: number;
  /**
   * Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed: addresses and CIDR ranges
   * (or loopback, linklocal, uniquelocal). Empty: none, the socket's address and scheme count.
   */
  trustProxy: string[];
  /** Creates the demo company and key on an empty embedded database. */
  seedDemo: boolean;
  /** Offers a person's company sample data (POST /settings/sample-data): by default in development mode on the embedded database only. */
  sampleData: boolean;
  /** TLS terminated by this server: PEM certificate and key files (both or neither). */
  tls: { certFile: string; keyFile: string } | undefined;
  /** LibreTranslate-compatible machine translation (AI translations of job listings); unset: none. */
  /** Applications through the job board one client address may send per hour (BOARD_APPLY_PER_HOUR). */
  boardApplyPerHour: number;
  /** The least time between showing the apply form and sending it (BOARD_APPLY_MIN_SECONDS). */
  boardApplyMinSeconds: number;
  /** The job board's CAPTCHA (CAPTCHA_PROVIDER, CAPTCHA_SECRET, CAPTCHA_SITE_KEY, CAPTCHA_VERIFY_URL); undefined: none. */
  captcha: { provider: 'turnstile' | 'hcaptcha'; secret: string; siteKey: string; verifyUrl: string | undefined } | undefined;
  translatorUrl: string | undefined;
  translatorApiKey: string | undefined;
  /**
   * TRANSLATOR_LANGUAGES: the languages every listing is machine-translated into when its texts are
   * written (besides the languages it has a human translation in). Empty: only those.
   */
  translatorLanguages: string[];
  /** Private signing keys (a JWKS file) for the authorization server; unset: generated and kept in the database. */
  oidcJwksFile: string | undefined;
  /** Cookie signing keys of the sign-in pages (newest first); unset: generated and kept in the database. */
  cookieKeys: string[] | undefined;
  /** The development sign-in by e-mail alone (no password): on by default with the embedded database in development mode only. */
  devSignIn: boolean;
  /** PostgreSQL connections per process. */
  dbPoolSize: number;
  /** PostgreSQL statement_timeout (0: none). */
  dbStatementTimeoutMs: number;
  /** PostgreSQL idle_in_transaction_session_timeout (0: none). */
  dbIdleInTransactionTimeoutMs: number;
  /** Longest wait for a free pooled connection before the request is answered 503 (0: forever). */
  dbPoolTimeoutMs: number;
  /** Time to receive a whole request (headers and body); slower clients get 408 and are cut off. */
  requestTimeoutMs: number;
  /** A socket with no traffic for this long is closed. */
  connectionTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Requests one keep-alive connection may carry before the server closes it. */
  maxRequestsPerSocket: number;
  /** On SIGTERM, how long requests in flight may still finish before they are answered 503 and cut. */
  shutdownDrainMs: number;
  /**
   * ENCRYPTION_KEY (seals secrets at rest) and ENCRYPTION_KEY_PREVIOUS (opens values sealed under
   * the key being rotated away from). Unset: a key kept in DATA_DIR (development mode only).
   */
  encryptionKey: { current: Buffer; previous: Buffer[] } | undefined;
  /** Scrapers of /metrics must send `Authorization: Bearer <token>` when set. */
  metricsToken: string | undefined;
  /** Serve /metrics on this port (its own listener) instead of the API port. */
  metricsPort: number | undefined;
  /** The worker's /metrics listener (`npm run worker`); unset: none. */
  workerMetricsPort: number | undefined;
  /** Ages after which the worker deletes rows: events, webhook deliveries (with attempts), idempotency keys. */
  retention: { eventsDays: number; deliveriesDays: number; idempotencyHours: number };
  /** Social sign-in providers: each present only when its client id and secret are set. */
  social: SocialSettings;
}

/** An OpenID Connect provider found by discovery (Google, LinkedIn). */
export interface OidcProviderSettings {
  clientId: string;
  clientSecret: string;
  /** Issuer URL; its /.well-known/openid-configuration is fetched on first use. */
  issuer: string;
  /** Send PKCE (S256). LinkedIn refuses code_verifier unless PKCE was enabled for the app. */
  pkce: boolean;
}

/** Facebook Login: plain OAuth 2 and a Graph API `me` call. */
export interface FacebookSettings {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** Graph API base, e.g. https://graph.facebook.com/v23.0 (the `me` call is {graphUrl}/me). */
  graphUrl: string;
  /** Send PKCE (S256), which Facebook documents for manually built login flows. */
  pkce: boolean;
}

export interface SocialSettings {
  google: OidcProviderSettings | undefined;
  linkedin: OidcProviderSettings | undefined;
  facebook: FacebookSettings | undefined;
  /** Bound on each outbound call to a provider (discovery, token, userinfo, Graph). */
  timeoutSeconds: number;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
  }
  return raw;
}

function tlsFiles(env: Env): Config['tls'] {
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  return { certFile, keyFile };
}

function translatorSettings(env: Env): Pick<Config, 'translatorUrl' | 'translatorApiKey' | 'translatorLanguages'> {
  const translatorUrl = url(env, 'TRANSLATOR_URL', ['http:', 'https:']);
  const translatorApiKey = env.TRANSLATOR_API_KEY || undefined;
  if (translatorApiKey && !translatorUrl) throw new ConfigError('TRANSLATOR_API_KEY is set but TRANSLATOR_URL is not');
  const translatorLanguages: string[] = [];
  for (const raw of (env.TRANSLATOR_LANGUAGES ?? '').split(',').map((entry) => entry.trim()).filter(Boolean)) {
    const tag = normalizeLanguageTag(raw);
    if (!tag) throw new ConfigError(`TRANSLATOR_LANGUAGES: ${raw} is not a BCP 47 language tag`);
    if (!translatorLanguages.includes(tag)) translatorLanguages.push(tag);
  }
  if (translatorLanguages.length > 0 && !translatorUrl) throw new ConfigError('TRANSLATOR_LANGUAGES is set but TRANSLATOR_URL is not');
  return { translatorUrl, translatorApiKey, translatorLanguages };
}

function captchaSettings(env: Env): Config['captcha'] {
  const secret = env.CAPTCHA_SECRET || undefined;
  const siteKey = env.CAPTCHA_SITE_KEY || undefined;
  const verifyUrl = url(env, 'CAPTCHA_VERIFY_URL', ['http:', 'https:']);
  if (!secret) {
    if (siteKey || verifyUrl) throw new ConfigError('CAPTCHA_SITE_KEY or CAPTCHA_VERIFY_URL is set but CAPTCHA_SECRET is not');
    return undefined;
  }
  if (!siteKey) throw new ConfigError('CAPTCHA_SECRET is set but CAPTCHA_SITE_KEY is not (the form\'s widget needs it)');
  return { provider: oneOf(env, 'CAPTCHA_PROVIDER', ['turnstile', 'hcaptcha'] as const, 'turnstile'), secret, siteKey, verifyUrl };
}

function cookieKeys(env: Env): string[] | undefined {
  const raw = env.COOKIE_KEYS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const keys = raw.split(',').map((key) => key.trim());
  if (keys.some((key) => key.length < 32)) {
    throw new ConfigError('COOKIE_KEYS must be a comma-separated list of secrets of at least 32 characters each (newest first)');
  }
  return keys;
}

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

function proxyList(env: Env): string[] {
  const raw = env.TRUST_PROXY ?? '';
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (PROXY_KEYWORDS.includes(entry)) continue;
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        `TRUST_PROXY must be a comma-separated list of addresses, CIDR ranges or ${PROXY_KEYWORDS.join('/')} (got "${entry}")`,
      );
    }
  }
  return entries;
}

function encryptionKeys(env: Env, mode: Mode): Config['encryptionKey'] {
  const parse = (name: string, raw: string) => {
    try {
      return parseEncryptionKey(raw, name);
    } catch (error) {
      if (error instanceof EncryptionKeyError) throw new ConfigError(error.message);
      throw error;
    }
  };
  const current = env.ENCRYPTION_KEY || undefined;
  const previous = (env.ENCRYPTION_KEY_PREVIOUS || '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (!current) {
    if (previous.length > 0) throw new ConfigError('ENCRYPTION_KEY_PREVIOUS is set but ENCRYPTION_KEY is not');
    // Several machines must share one key, and it must live apart from the data it protects.
    if (mode === 'production') {
      throw new ConfigError('ENCRYPTION_KEY is required in production mode (generate one with `npm run -s cli -- encryption-key generate`)');
    }
    return undefined;
  }
  return { current: parse('ENCRYPTION_KEY', current), previous: previous.map((value) => parse('ENCRYPTION_KEY_PREVIOUS', value)) };
}

function optionalPort(env: Env, name: string): number | undefined {
  if (env[name] === undefined || env[name] === '') return undefined;
  return integer(env, name, 0, 0, 65535);
}

/** A provider's client id and secret: both (the provider is on) or neither (it is off). */
function clientCredentials(env: Env, prefix: string): { clientId: string; clientSecret: string } | undefined {
  const clientId = env[`${prefix}_CLIENT_ID`] || undefined;
  const clientSecret = env[`${prefix}_CLIENT_SECRET`] || undefined;
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    throw new ConfigError(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
  }
  return { clientId, clientSecret };
}

/**
 * A provider endpoint: https, or http in development mode only (local stand-ins in tests). The
 * endpoint receives the client secret and the authorization codes, so production never speaks
 * plain HTTP to it.
 */
function providerUrl(env: Env, name: string, fallback: string, mode: Mode): string {
  const value = url(env, name, mode === 'production' ? ['https:'] : ['http:', 'https:']) ?? fallback;
  return value.replace(/\/$/, '');
}

const FACEBOOK_GRAPH = 'https://graph.facebook.com/v23.0';

function socialSettings(env: Env, mode: Mode): SocialSettings {
  // Every setting is checked even for a provider that is off: a typo should stop the start, not
  // surface the day the provider is switched on.
  const googleIssuer = providerUrl(env, 'GOOGLE_ISSUER', 'https://accounts.google.com', mode);
  const linkedinIssuer = providerUrl(env, 'LINKEDIN_ISSUER', 'https://www.linkedin.com/oauth', mode);
  const linkedinPkce = boolean(env, 'LINKEDIN_PKCE', false);
  const facebookEndpoints = {
    authorizeUrl: providerUrl(env, 'FACEBOOK_AUTHORIZE_URL', 'https://www.facebook.com/v23.0/dialog/oauth', mode),
    tokenUrl: providerUrl(env, 'FACEBOOK_TOKEN_URL', `${FACEBOOK_GRAPH}/oauth/access_token`, mode),
    graphUrl: providerUrl(env, 'FACEBOOK_GRAPH_URL', FACEBOOK_GRAPH, mode),
    pkce: boolean(env, 'FACEBOOK_PKCE', true),
  };
  const google = clientCredentials(env, 'GOOGLE');
  const linkedin = clientCredentials(env, 'LINKEDIN');
  const facebook = clientCredentials(env, 'FACEBOOK');
  return {
    google: google && { ...google, issuer: googleIssuer, pkce: true },
    linkedin: linkedin && { ...linkedin, issuer: linkedinIssuer, pkce: linkedinPkce },
    facebook: facebook && { ...facebook, ...facebookEndpoints },
    timeoutSeconds: integer(env, 'SOCIAL_TIMEOUT_SECONDS', 10, 1, 60),
  };
}

const S3_BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;
const S3_PREFIX = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*\/?$/;

/**
 * The S3 settings (S3_*), whatever FILE_STORE says: the server reads them with FILE_STORE=s3, and
 * `export-to-postgres --files-to s3` reads them as its target. Secrets are never part of a message.
 */
export function s3StoreSettings(env: Env): S3StoreSettings {
  const bucket = env.S3_BUCKET || undefined;
  if (!bucket) throw new ConfigError('S3_BUCKET is required with FILE_STORE=s3 (the bucket that keeps uploaded files)');
  if (!S3_BUCKET.test(bucket)) {
    throw new ConfigError(`S3_BUCKET must be a bucket name: 3 to 222 lower-case letters, digits, dots, hyphens or underscores (got "${bucket}")`);
  }
  const endpoint = url(env, 'S3_ENDPOINT', ['http:', 'https:']);
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw new ConfigError(`S3_REGION must be a region name such as us-east-1 or auto (got "${region}")`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither: the AWS SDK default credential chain)');
  }
  const rawPrefix = env.S3_PREFIX || '';
  if (rawPrefix && (!S3_PREFIX.test(rawPrefix) || rawPrefix.split('/').some((part) => part === '.' || part === '..'))) {
    throw new ConfigError(`S3_PREFIX must be path parts of letters, digits, '.', '_' or '-' separated by '/', without a leading '/' (got "${rawPrefix}")`);
  }
  return {
    kind: 's3',
    bucket,
    endpoint: endpoint?.replace(/\/$/, ''),
    region,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', endpoint !== undefined),
    prefix: rawPrefix === '' || rawPrefix.endsWith('/') ? rawPrefix : `${rawPrefix}/`,
    timeoutMs: integer(env, 'S3_TIMEOUT_MS', 30_000, 100, 600_000),
  };
}

function fileStoreSettings(env: Env): FileStoreSettings {
  const kind = oneOf(env, 'FILE_STORE', ['directory', 's3'] as const, 'directory');
  if (kind === 's3') {
    if (env.FILES_DIR) throw new ConfigError('FILES_DIR is for FILE_STORE=directory; with FILE_STORE=s3 the files are in S3_BUCKET');
    return s3StoreSettings(env);
  }
  // S3 settings with FILE_STORE unset are most likely a forgotten FILE_STORE=s3: every server would
  // keep its own files on its own disk. FILE_STORE=directory says it is meant (the export's case).
  if (!env.FILE_STORE && env.S3_BUCKET) {
    throw new ConfigError('S3_BUCKET is set but FILE_STORE is not: set FILE_STORE=s3 to keep files there (or FILE_STORE=directory to keep them in FILES_DIR)');
  }
  return { kind, dir: env.FILES_DIR || join(env.DATA_DIR || './data', 'files') };
}

export function loadConfig(env: Env = process.env): Config {
  const mode = oneOf(env, 'MODE', ['development', 'production'] as const, 'development');
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const baseUrl = (url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/$/, '');
  const webhookAllowLocal = boolean(env, 'WEBHOOK_ALLOW_LOCAL', false);
  if (mode === 'production' && webhookAllowLocal) {
    throw new ConfigError('WEBHOOK_ALLOW_LOCAL cannot be true in production mode');
  }
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const devSignIn = boolean(env, 'DEV_SIGN_IN', databaseUrl === undefined && mode === 'development');
  const webhookConcurrency = integer(env, 'WEBHOOK_CONCURRENCY', 200, 1, 200);
  if (mode === 'production' && devSignIn) {
    throw new ConfigError('DEV_SIGN_IN cannot be true in production mode (anyone could sign in as anyone)');
  }
  const sampleData = boolean(env, 'SAMPLE_DATA', databaseUrl === undefined && mode === 'development');
  if (mode === 'production' && sampleData) {
    throw new ConfigError('SAMPLE_DATA cannot be true in production mode (made-up candidates in a real company)');
  }
  return {
    port,
    host,
    baseUrl,
    dataDir: env.DATA_DIR || './data',
    fileStore: fileStoreSettings(env),
    fileMaxBytes: integer(env, 'FILE_MAX_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    databaseUrl,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    mode,
    webhookAllowLocal,
    // PGlite is single-process: with the embedded database only the server itself can deliver.
    webhookWorkerInServer: boolean(env, 'WEBHOOK_WORKER_IN_SERVER', databaseUrl === undefined),
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 10, 60_000),
    // Keep it above a send's 10 s to connect plus 10 s for the answer, or a slow receiver may get a second copy.
    webhookLeaseSeconds: integer(env, 'WEBHOOK_LEASE_SECONDS', 60, 1, 3600),
    webhookConcurrency,
    webhookSubscriptionConcurrency: integer(env, 'WEBHOOK_SUBSCRIPTION_CONCURRENCY', 50, 1, 200),
    // Half a worker's slots by default: the other half stays for the other companies.
    webhookCompanyConcurrency: integer(env, 'WEBHOOK_COMPANY_CONCURRENCY', Math.ceil(webhookConcurrency / 2), 1, 200),
    webhookCircuitFailures: integer(env, 'WEBHOOK_CIRCUIT_FAILURES', 5, 1, 1000),
    webhookCircuitCooldownSeconds: integer(env, 'WEBHOOK_CIRCUIT_COOLDOWN_SECONDS', 60, 1, 86_400),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    idempotencyLeaseSeconds: integer(env, 'IDEMPOTENCY_LEASE_SECONDS', 60, 1, 86_400),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    redisBreakerMs: integer(env, 'REDIS_BREAKER_MS', 1000, 100, 3_600_000),
    trustProxy: proxyList(env),
    seedDemo: boolean(env, 'SEED_DEMO', databaseUrl === undefined && mode === 'development'),
    sampleData,
    tls: tlsFiles(env),
    ...translatorSettings(env),
    boardApplyPerHour: integer(env, 'BOARD_APPLY_PER_HOUR', 10, 1, 1_000_000),
    boardApplyMinSeconds: integer(env, 'BOARD_APPLY_MIN_SECONDS', 3, 0, 3600),
    captcha: captchaSettings(env),
    oidcJwksFile: env.OIDC_JWKS_FILE || undefined,
    cookieKeys: cookieKeys(env),
    devSignIn,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 1000),
    dbStatementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 30_000, 0, 86_400_000),
    dbIdleInTransactionTimeoutMs: integer(env, 'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000, 0, 86_400_000),
    dbPoolTimeoutMs: integer(env, 'DB_POOL_TIMEOUT_MS', 5_000, 0, 600_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    connectionTimeoutMs: integer(env, 'CONNECTION_TIMEOUT_MS', 60_000, 100, 3_600_000),
    // Above the usual 60 s idle timeout of load balancers, so they close first, never we under them.
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
    maxRequestsPerSocket: integer(env, 'MAX_REQUESTS_PER_SOCKET', 1000, 1, 1_000_000),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 10_000, 100, 600_000),
    encryptionKey: encryptionKeys(env, mode),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: optionalPort(env, 'METRICS_PORT'),
    workerMetricsPort: optionalPort(env, 'WORKER_METRICS_PORT'),
    retention: {
      // Not below 30: the event feed (GET /public/v1/events) promises 30 days of events.
      eventsDays: integer(env, 'RETENTION_EVENTS_DAYS', 30, 30, 3650),
      deliveriesDays: integer(env, 'RETENTION_DELIVERIES_DAYS', 30, 1, 3650),
      // Not below the 24-hour replay window: a retry within it must still find its key.
      idempotencyHours: integer(env, 'RETENTION_IDEMPOTENCY_HOURS', 24, 24, 24 * 365),
    },
    social: socialSettings(env, mode),
  };
}
