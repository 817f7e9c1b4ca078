import { expect } from 'vitest';

/** Asserts an error response is the contract's envelope with this status, code and path; returns the body. */
export function expectErrorEnvelope(
  res: { statusCode: number; json(): unknown },
  status: number,
  error: string,
  path: string,
): Record<string, unknown> {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ status, error, path });
  expect(typeof body.message).toBe('string');
  expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);
  return body;
}
