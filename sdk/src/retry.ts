// Retries for the SDK's fetch: what every integrator writes by hand, once. A retried POST carries
// the same Idempotency-Key on every attempt (generated once per logical call unless the caller
// gave one), so the server runs it at most once and replays its first answer.

export interface RetryOptions {
  /** Attempts after the first (default 3; 0 turns retries off). */
  retries?: number;
  /** The longest wait the client accepts: a Retry-After beyond it returns the response instead (default 60 s). */
  maxDelayMs?: number;
  /** First back-off when the server gives no Retry-After (doubled each attempt, with jitter; default 500 ms). */
  baseDelayMs?: number;
  /** How to wait (tests pass one that advances a fake clock). */
  sleep?: (ms: number) => Promise<void>;
}

/** Statuses worth another attempt: the request was refused or lost before it was processed. */
const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

/** Methods a repeat cannot make worse (POST becomes one through its Idempotency-Key). */
const SAFE_TO_REPEAT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST']);

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Set by the SDK on a request whose body is a stream: sent once, never retried (removed before sending). */
export const ONE_SHOT_HEADER = 'x-recruiting-sdk-one-shot';

export function withRetries(
  fetchOnce: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const sleep = options.sleep ?? defaultSleep;

  return async (original: Request) => {
    let request = original;
    if (request.headers.has(ONE_SHOT_HEADER)) {
      // A streamed body (a file upload) can be sent once: no copy kept for a retry, which would hold it whole.
      const headers = new Headers(request.headers);
      headers.delete(ONE_SHOT_HEADER);
      return fetchOnce(new Request(request, { headers, duplex: 'half' } as RequestInit));
    }
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      // One key per logical call, reused by every attempt below.
      const headers = new Headers(request.headers);
      headers.set('idempotency-key', crypto.randomUUID());
      request = new Request(request, { headers });
    }
    const repeatable = SAFE_TO_REPEAT.has(request.method);
    for (let attempt = 0; ; attempt += 1) {
      const backOff = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2));
      let response: Response;
      try {
        // A body can be read once: every attempt sends a copy.
        response = await fetchOnce(request.clone());
      } catch (error) {
        // No answer at all: only a method that may be repeated is sent again.
        if (!repeatable || attempt >= retries) throw error;
        await sleep(backOff);
        continue;
      }
      if (!RETRYABLE_STATUSES.has(response.status) || attempt >= retries) return response;
      // 429 and 503 mean "not processed"; the other statuses only for methods that may repeat.
      if (!repeatable && response.status !== 429 && response.status !== 503) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? backOff;
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
