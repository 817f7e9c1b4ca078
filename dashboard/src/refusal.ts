// What the dashboard says when the API refuses a call for now (429 over a rate limit, 503 briefly
// unavailable): what happened and when to try again, counted down to the time the server's
// Retry-After named. Pure (no React, no DOM), so it is tested without a browser.

/** The sentence for a refused call at `now`; undefined for any other status. */
export function refusalAdvice(status: number, retryAt: number | undefined, now: number): string | undefined {
  const what =
    status === 429
      ? 'Too many requests for now.'
      : status === 503
        ? 'The service is briefly unavailable.'
        : undefined;
  if (!what) return undefined;
  if (retryAt === undefined) return `${what} Try again in a minute.`;
  const seconds = Math.ceil((retryAt - now) / 1000);
  if (seconds <= 0) return `${what} You can try again now.`;
  return `${what} Try again in ${duration(seconds)}.`;
}

function duration(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  // Rounded, not raised: a Retry-After of 60 s read a moment late (61 s) is still "1 minute".
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** "address.country" → "Address country", "benefits.2" → "Benefit 3", "salaryBase" → "Salary base". */
export function fieldName(path: string): string {
  const words = path
    .replace(/^\/|^body\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split(/[./]/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase()))
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What to do about an error the API answered (not the 429/503 refusals above): a sentence in words,
 * never its code or HTTP status. `local` says the request named a local address (a webhook in
 * development), which a server allows only when configured to.
 */
export function errorAdvice(status: number, code: string, details: ReadonlyArray<{ field: string; message: string }>, options: { local?: boolean } = {}): string | undefined {
  if (options.local && details.some((detail) => /public internet address|must use https/.test(detail.message))) {
    return 'Local addresses need WEBHOOK_ALLOW_LOCAL=true on this server (development only); in production use a public https address.';
  }
  if (code === 'WEBHOOK_UNREACHABLE') return 'Check that the receiver is running and reachable from this server, then try again.';
  if (status === 400 || status === 422) return details.length > 0 ? 'Correct the fields below and try again.' : 'Check what you entered and try again.';
  if (status === 401) return 'Your session has ended: sign in again.';
  if (status === 403) return 'Your role does not allow this: ask an admin of your company.';
  if (status === 404) return 'It is no longer there (someone may have removed it): reload the page.';
  if (status === 409 || status === 412) return 'Someone changed this in the meantime: reload the page and try again.';
  if (status === 413) return 'That is too large: choose a smaller file or a shorter text.';
  if (status >= 500) return 'Something went wrong on the server: try again in a moment.';
  return undefined;
}

/** Whether a URL names this machine or a private network (a webhook receiver in development). */
export function isLocalUrl(raw: string): boolean {
  try {
    const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host.endsWith('.localhost') || /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|0\.0\.0\.0$)/.test(host);
  } catch {
    return false;
  }
}
