// What an error may say in a log line. Database errors carry the values of the failed statement:
// Drizzle's DrizzleQueryError puts every bound parameter in its message, stack and `params`
// (a new subscription's whsec_ secret, candidates' e-mails), and PostgreSQL's `detail` repeats
// key values ("Key (email)=(ada@example.com) already exists"). Logged errors keep the statement
// text, the SQLSTATE code and the names of the constraint, table and column, never the values; and
// anything that still looks like a secret, a bearer token or an e-mail address is masked.

/**
 * An e-mail address in free text. Each match may start only where a run of address characters
 * starts (the lookbehind), and every part is bounded: the plain `[...]+@...` form backtracked over
 * every position of a long run, so masking one 20 KB URL or message cost seconds of CPU.
 */
export const EMAIL_PATTERN =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,63}(?![A-Za-z0-9-])/g;

/** Masks secrets, tokens and e-mail addresses in free text. */
export function scrubText(text: string): string {
  return text
    .replace(/whsec_[A-Za-z0-9+/=_-]*/g, 'whsec_[redacted]')
    .replace(/rk_live_[A-Za-z0-9]*/g, 'rk_live_[redacted]')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
    .replace(EMAIL_PATTERN, '[email]');
}

/**
 * Query parameters whose values are credentials, or as good as one for a moment (an authorization
 * code, a state, a login hint): the name alone decides, so a key sent under any of the usual names
 * (`api_key`, `apiKey`, `access_token`, `id_token_hint`, `client_secret`, `code`...) never reaches a
 * log line. `q` and `email` hold personal data.
 */
const SECRET_PARAM =
  /^(?:q|email|code|state|nonce|key|token|secret|password|passwd|signature|sig|session|auth|authorization|assertion|otp|ticket)$|(?:token|secret|password|api[-_]?key|assertion|verifier|_hint|credentials?|signature)$/i;

/** Whether a query parameter's value must not be logged. */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM.test(name);
}

/**
 * A URL as it may be logged: the values of credential and personal-data parameters replaced, and
 * anything left that looks like a key, a secret or an e-mail address masked.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return scrubText(url);
  const params = new URLSearchParams(url.slice(query + 1));
  const redacted = new URLSearchParams();
  for (const [name, value] of params) redacted.append(name, isSecretParam(name) ? '[redacted]' : scrubText(value));
  return `${scrubText(url.slice(0, query))}?${redacted.toString()}`;
}

/**
 * Pino serializer for `req` (Fastify's own request log lines, when any is written): the URL through
 * redactUrl, no headers.
 */
export function safeRequestSerializer(request: { method?: string; url?: string; ip?: string; host?: string; remoteAddress?: string }): Record<string, unknown> {
  // Also given its own answer (the logger's formatter serializes first): idempotent.
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : undefined,
    host: request.host,
    remoteAddress: request.ip ?? request.remoteAddress,
  };
}

/** Fields of a driver error that name things, never values. */
const SAFE_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine', 'statusCode'] as const;

export interface SafeError {
  type: string;
  message: string;
  stack?: string;
  [field: string]: unknown;
}

function firstLineOfMessage(error: Error & { query?: unknown }): string {
  // DrizzleQueryError: "Failed query: <sql>\nparams: <values>": keep the statement, drop the values.
  if (typeof error.query === 'string' && error.message.startsWith('Failed query:')) return `Failed query: ${error.query}`;
  return error.message;
}

/** Pino serializer for `err` (and the worker's own log lines): see the file comment. */
export function safeErrorSerializer(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const error = value as Error & Record<string, unknown>;
  const message = scrubText(firstLineOfMessage(error));
  const out: SafeError = { type: error.name || error.constructor?.name || 'Error', message };
  // The stack's first lines repeat the message (with the values): keep only the frames.
  if (typeof error.stack === 'string') {
    const frames = error.stack.split('\n').filter((line) => /^\s+at /.test(line));
    out.stack = scrubText([`${out.type}: ${message}`, ...frames].join('\n'));
  }
  for (const field of SAFE_FIELDS) {
    if (typeof error[field] === 'string' || typeof error[field] === 'number') out[field] = error[field];
  }
  if (error.cause !== undefined && depth < 3) out.cause = safeErrorSerializer(error.cause, depth + 1);
  return out;
}

/** The same, typed for Fastify's logger option (`serializers.err`), which always hands an Error. */
export function safeErrorForLogger(error: Error): { type: string; message: string; stack: string; [field: string]: unknown } {
  // Anything else logged under these keys (a string, a plain object) goes through as it is.
  if (!(error instanceof Error)) return error as never;
  const safe = safeErrorSerializer(error) as SafeError;
  return { ...safe, stack: safe.stack ?? '' };
}
