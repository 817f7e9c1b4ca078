// The one way a webhook leaves the service: an undici Agent whose connections are guarded.
// The address check runs inside the connection itself: the DNS answer is validated in the socket's
// own `lookup` (and an IP literal just before connecting), so the address checked is the address
// connected to. A hostname that resolved to a public address when the subscription was created and
// resolves to 127.0.0.1 now (DNS rebinding) is refused here, with no second lookup after the check.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import type { DownloadResult, UrlDownloader } from '../../adapters/outbound/downloader.ts';
import { isAddressAllowed } from './address-guard.ts';

export const SEND_TIMEOUT_MS = 10_000;
/** Connections to one origin at once, per process: the worker's most sends in flight (WEBHOOK_CONCURRENCY's limit). */
export const CONNECTIONS_PER_ORIGIN = 200;
/** At most this much of a receiver's answer is kept (decisions.md: 20 KB). */
export const RESPONSE_BODY_LIMIT_BYTES = 20 * 1024;

/** Resolves a host name to every address it has (like dns.lookup with all: true). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, order: 'verbatim' }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** Why no HTTP answer came. Names the kind of failure only, never the network behind it. */
export type FailureKind =
  | 'blocked_address'
  | 'dns_failure'
  | 'connection_refused'
  | 'timeout'
  | 'tls_error'
  | 'connection_reset'
  | 'network_error';

export const FAILURE_DESCRIPTIONS: Record<FailureKind, string> = {
  blocked_address: 'the address is not allowed',
  dns_failure: 'the host name could not be resolved',
  connection_refused: 'the connection was refused',
  timeout: `no answer within ${SEND_TIMEOUT_MS / 1000} seconds`,
  tls_error: 'the TLS handshake failed',
  connection_reset: 'the connection was closed before an answer',
  network_error: 'a network error occurred',
};

export type SendResult =
  | { kind: 'response'; statusCode: number; body: string; durationMs: number }
  | { kind: 'failure'; failure: FailureKind; durationMs: number };

export interface WebhookTransport {
  /**
   * Checks a subscription URL (create, PATCH): scheme, no credentials, and every address the host
   * resolves to. Answers the problem as a message for the `url` field, or null when it is fine.
   */
  checkUrl(url: string): Promise<string | null>;
  /** POSTs the body; never follows a redirect, never throws for a receiver's failure. */
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): Promise<void>;
}

export interface TransportOptions {
  /** config.webhookAllowLocal: http and loopback/private addresses allowed. */
  allowLocal: boolean;
  /** The answer's deadline, from the moment the request is written on its connection. */
  timeoutMs?: number;
  /** Making the connection (DNS, TCP, TLS) gets this long (default timeoutMs). */
  connectTimeoutMs?: number;
  /**
   * Connections to one origin at once (default CONNECTIONS_PER_ORIGIN). A send beyond them waits
   * for one, and the wait is not part of its deadline; at the default a worker's sends never wait.
   */
  connectionsPerOrigin?: number;
  /** Tests replace DNS to show rebinding is refused. */
  resolve?: Resolver;
  userAgent?: string;
}

const BLOCKED = 'EWEBHOOKBLOCKED';

function blockedError(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error('webhook address not allowed');
  error.code = BLOCKED;
  return error;
}

export function createWebhookTransport(options: TransportOptions): WebhookTransport {
  const allowLocal = options.allowLocal;
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? timeoutMs;
  const resolve = options.resolve ?? systemResolver;
  const userAgent = options.userAgent ?? 'Recruiting-Webhooks/1.0';

  const agent = guardedAgent({
    allowLocal,
    resolve,
    connectTimeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connections: options.connectionsPerOrigin ?? CONNECTIONS_PER_ORIGIN,
  });

  return {
    checkUrl: (raw) => checkOutboundUrl(raw, allowLocal, resolve),

    async send(url, headers, body) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      // One deadline for the answer: headers and every byte of the body. undici's
      // headersTimeout/bodyTimeout are idle timeouts a receiver can stretch by dripping a byte at a
      // time; this one cannot be. It starts once the request is written on its connection: a send
      // waiting for one of the origin's connections (held by another company's hanging receivers)
      // must not spend its own receiver's time; connecting has its own limit (connectTimeoutMs).
      const abort = new AbortController();
      let deadline: NodeJS.Timeout | undefined;
      const startDeadline = () => {
        deadline ??= setTimeout(() => abort.abort(new DOMException('no answer in time', 'TimeoutError')), timeoutMs);
      };
      try {
        // undici's request() never follows redirects: a 3xx comes back as the answer (a failure).
        const response = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': userAgent, ...headers },
          body,
          dispatcher: agent.compose(onRequestWritten(startDeadline)),
          signal: abort.signal,
        });
        const kept = await readLimited(response.body);
        // An answer still arriving at the deadline is no answer in time, whatever its status.
        if (abort.signal.aborted) return { kind: 'failure', failure: 'timeout', durationMs: elapsed() };
        return { kind: 'response', statusCode: response.statusCode, body: kept, durationMs: elapsed() };
      } catch (error) {
        return { kind: 'failure', failure: abort.signal.aborted ? 'timeout' : classifyFailure(error), durationMs: elapsed() };
      } finally {
        clearTimeout(deadline);
      }
    },

    async close() {
      await agent.close();
    },
  };
}

/** A URL download (a file given as a link) gets this long, connection and every byte included. */
export const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * GETs URLs through the same guard as webhooks (src/adapters/outbound/downloader.ts): the URL is
 * checked first (scheme, credentials, every address), and the connection checks again the address
 * it really connects to. Redirects are not followed. One deadline for the whole answer.
 */
export function createGuardedDownloader(options: { allowLocal: boolean; timeoutMs?: number; resolve?: Resolver; userAgent?: string }): UrlDownloader {
  const { allowLocal } = options;
  const timeoutMs = options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
  const resolve = options.resolve ?? systemResolver;
  const agent = guardedAgent({ allowLocal, resolve, connectTimeoutMs: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 16 });
  return {
    async download(url): Promise<DownloadResult> {
      const problem = await checkOutboundUrl(url, allowLocal, resolve);
      if (problem) return { kind: 'refused', problem };
      const abort = new AbortController();
      const deadline = setTimeout(() => abort.abort(new DOMException('no answer in time', 'TimeoutError')), timeoutMs);
      try {
        const response = await request(url, {
          method: 'GET',
          headers: { 'user-agent': options.userAgent ?? 'Recruiting-Files/1.0', accept: '*/*' },
          dispatcher: agent,
          signal: abort.signal,
        });
        // Destroying the body early (a refusal, a size limit) errors it: nobody else listens.
        response.body.on('error', () => {});
        if (response.statusCode < 200 || response.statusCode > 299) {
          clearTimeout(deadline);
          response.body.destroy();
          return { kind: 'status', statusCode: response.statusCode };
        }
        const length = Number(response.headers['content-length']);
        const source = response.body;
        return {
          kind: 'body',
          contentLength: Number.isSafeInteger(length) && length >= 0 ? length : undefined,
          timedOut: () => abort.signal.aborted,
          body: (async function* () {
            try {
              for await (const chunk of source) yield chunk as Uint8Array;
            } finally {
              clearTimeout(deadline);
              source.destroy();
            }
          })(),
        };
      } catch (error) {
        clearTimeout(deadline);
        return { kind: 'failure', failure: abort.signal.aborted ? 'timeout' : classifyFailure(error) };
      }
    },
    async close() {
      await agent.close();
    },
  };
}

/**
 * An undici Agent whose every connection is guarded: the DNS answer checked in the socket's own
 * lookup, an IP literal checked just before connecting (see the top of this file).
 */
function guardedAgent(options: {
  allowLocal: boolean;
  resolve: Resolver;
  connectTimeoutMs: number;
  headersTimeout: number;
  bodyTimeout: number;
  connections: number;
}): Agent {
  const { allowLocal, resolve } = options;
  // net.connect's lookup hook: the only DNS answer this connection will use is checked here.
  const guardedLookup = (
    hostname: string,
    lookupOptions: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolve(hostname).then(
      (all) => {
        const addresses = lookupOptions.family ? all.filter((a) => a.family === lookupOptions.family) : all;
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`no address for ${hostname}`);
          error.code = 'ENOTFOUND';
          return callback(error, []);
        }
        // One disallowed answer refuses the host: an attacker must not get to pick among them.
        if (addresses.some((a) => !isAddressAllowed(a.address, allowLocal))) return callback(blockedError(), []);
        if (lookupOptions.all) return callback(null, addresses);
        return callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };

  const connectGuarded = buildConnector({ lookup: guardedLookup, timeout: options.connectTimeoutMs });
  return new Agent({
    // An IP literal never reaches the lookup hook, so it is checked here, at connect time too.
    connect: (connectOptions, callback) => {
      const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && !isAddressAllowed(host, allowLocal)) {
        callback(blockedError(), null);
        return;
      }
      connectGuarded(connectOptions, callback);
    },
    headersTimeout: options.headersTimeout,
    bodyTimeout: options.bodyTimeout,
    connections: options.connections,
  });
}

/**
 * Checks an outbound URL: absolute, https (http too when local addresses are allowed), no
 * credentials, and every address its host resolves to allowed. Answers the problem as a message
 * for the URL's field, or null when it is fine.
 */
async function checkOutboundUrl(raw: string, allowLocal: boolean, resolve: Resolver): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) {
    return allowLocal ? 'must use https or http' : 'must use https';
  }
  if (url.username || url.password) return 'must not contain a user name or password';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch {
      return 'host name could not be resolved';
    }
    if (addresses.length === 0) return 'host name could not be resolved';
  }
  if (addresses.some((address) => !isAddressAllowed(address, allowLocal))) {
    return 'must resolve to a public internet address (private, loopback, link-local and reserved addresses are refused)';
  }
  return null;
}

/**
 * An undici interceptor that calls `written` when the request is written on a connected socket
 * (undici calls onRequestStart then: after any wait for a free connection, and after connecting).
 */
function onRequestWritten(written: () => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(opts, {
      onRequestStart(controller, context) {
        written();
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: (...args) => handler.onRequestUpgrade?.(...args),
      onResponseStart: (...args) => handler.onResponseStart?.(...args),
      onResponseData: (...args) => handler.onResponseData?.(...args),
      onResponseEnd: (...args) => handler.onResponseEnd?.(...args),
      onResponseError: (...args) => handler.onResponseError?.(...args),
    });
}

/** Reads at most RESPONSE_BODY_LIMIT_BYTES, then drops the connection rather than read the rest. */
async function readLimited(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_BODY_LIMIT_BYTES) break; // leaving the loop destroys the stream
    }
  } catch {
    // A body cut short (reset, or the deadline: the caller checks) keeps what arrived.
  }
  const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT_BYTES).toString('utf8');
  // PostgreSQL text cannot hold NUL characters.
  return text.replace(/\u0000/g, '\uFFFD');
}

function classifyFailure(error: unknown): FailureKind {
  // undici and net wrap causes; look at the whole chain.
  for (let e = error as (Error & { code?: string; cause?: unknown }) | undefined; e; e = e.cause as typeof e) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (code === BLOCKED) return 'blocked_address';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NONAME') return 'dns_failure';
    if (code === 'ECONNREFUSED') return 'connection_refused';
    if (e.name === 'TimeoutError' || code === 'ETIMEDOUT' || code.endsWith('_TIMEOUT')) return 'timeout';
    if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code)) return 'tls_error';
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
      return 'connection_reset';
    }
  }
  return 'network_error';
}

/** The attempt log's `error`: why no HTTP answer came, or why an answer was not a success. */
export function attemptError(result: SendResult): string | null {
  if (result.kind === 'failure') return result.failure.toUpperCase();
  if (result.statusCode >= 300 && result.statusCode < 400) return 'REDIRECT_NOT_FOLLOWED';
  return null;
}
