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
