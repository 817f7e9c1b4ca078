// The retry wrapper's rules, with a scripted fetch standing in for the network (the SDK's tests
// against the real server cover a real 429): which answers are retried, how long it waits, and
// that a POST keeps one Idempotency-Key across attempts.
import { describe, expect, it } from 'vitest';
import { retryAfterMs, withRetries } from '@recruiting/sdk';

function scripted(answers: Array<Response | Error>) {
  const seen: Request[] = [];
  const fetchOnce = async (request: Request) => {
    seen.push(request);
    const next = answers.shift();
    if (!next) throw new Error('no more answers scripted');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetchOnce, seen };
}

const waits: number[] = [];
const sleep = async (ms: number) => void waits.push(ms);

describe('withRetries', () => {
  it('retries a POST after a lost connection and a 503 with the same generated Idempotency-Key and the same body', async () => {
    const { fetchOnce, seen } = scripted([new TypeError('fetch failed'), new Response('', { status: 503, headers: { 'retry-after': '2' } }), new Response('{}', { status: 201 })]);
    waits.length = 0;
    const response = await withRetries(fetchOnce, { sleep })(new Request('http://api.test/x', { method: 'POST', body: '{"a":1}' }));
    expect(response.status).toBe(201);
    expect(seen).toHaveLength(3);
    const keys = seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(await Promise.all(seen.map((r) => r.text()))).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
    expect(waits[1]).toBe(2000);
  });

  it("keeps the caller's own Idempotency-Key", async () => {
    const { fetchOnce, seen } = scripted([new Response('', { status: 429, headers: { 'retry-after': '1' } }), new Response('{}', { status: 200 })]);
    await withRetries(fetchOnce, { sleep })(new Request('http://api.test/x', { method: 'POST', headers: { 'idempotency-key': 'mine' } }));
    expect(seen.map((r) => r.headers.get('idempotency-key'))).toEqual(['mine', 'mine']);
  });

  it('does not resend a PATCH whose answer was lost, but does after 429', async () => {
    const lost = scripted([new TypeError('fetch failed')]);
    await expect(withRetries(lost.fetchOnce, { sleep })(new Request('http://api.test/x', { method: 'PATCH', body: '{}' }))).rejects.toThrow('fetch failed');
    expect(lost.seen).toHaveLength(1);
    const limited = scripted([new Response('', { status: 429, headers: { 'retry-after': '1' } }), new Response('{}', { status: 200 })]);
    expect((await withRetries(limited.fetchOnce, { sleep })(new Request('http://api.test/x', { method: 'PATCH', body: '{}' }))).status).toBe(200);
    expect(limited.seen[0].headers.get('idempotency-key')).toBeNull();
  });

  it('returns the answer when Retry-After is longer than it may wait, and after the last attempt', async () => {
    const long = scripted([new Response('', { status: 429, headers: { 'retry-after': '3600' } })]);
    expect((await withRetries(long.fetchOnce, { sleep, maxDelayMs: 60_000 })(new Request('http://api.test/x'))).status).toBe(429);
    expect(long.seen).toHaveLength(1);
    const busy = scripted([503, 503, 503].map((status) => new Response('', { status })));
    expect((await withRetries(busy.fetchOnce, { sleep, retries: 2 })(new Request('http://api.test/x'))).status).toBe(503);
    expect(busy.seen).toHaveLength(3);
  });

  it('does not retry answers that will not change: 400, 404, 409, 422, 500', async () => {
    for (const status of [400, 404, 409, 422, 500]) {
      const once = scripted([new Response('', { status })]);
      expect((await withRetries(once.fetchOnce, { sleep })(new Request('http://api.test/x', { method: 'POST' }))).status).toBe(status);
      expect(once.seen).toHaveLength(1);
    }
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('5')).toBe(5000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
