// The one way the dashboard reaches the API: the SDK's typed client (@recruiting/sdk, openapi-fetch
// over types generated from the OpenAPI document). Every request carries the current access token; a
// 401 refreshes once and sends the request again. A 429 or 503 is retried by the SDK only when its
// Retry-After is a few seconds: a longer wait is shown to the person (with when to try again) rather
// than spent behind a spinner.
import { createRecruitingClient, retryAfterMs, type paths, type Schemas as SdkSchemas } from '@recruiting/sdk';
import { useCallback, useEffect, useState } from 'react';
import { accessToken, recoverFromUnauthorized } from './auth';

export type Schemas = SdkSchemas;

/** The JSON body an operation takes, as the SDK types it: `RequestBody<'/public/v1/job-listings', 'post'>`. */
export type RequestBody<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** A 401 (the access token expired or was revoked): refresh once, then send the request again. */
async function fetchWithRefresh(request: Request): Promise<Response> {
  const spare = request.clone();
  const response = await fetch(request);
  if (response.status !== 401 || !(await recoverFromUnauthorized())) return response;
  spare.headers.set('authorization', `Bearer ${await accessToken()}`);
  return fetch(spare);
}

export const api = createRecruitingClient({ baseUrl: window.location.origin, accessToken, fetch: fetchWithRefresh, retry: { maxDelayMs: 5_000 } });

/** The API's error envelope, or whatever came back instead. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Array<{ field: string; message: string }>;
  /** When the server said to try again (Retry-After), as epoch milliseconds. */
  readonly retryAt: number | undefined;
  constructor(status: number, body: unknown, retryAt?: number) {
    const envelope = (body ?? {}) as { error?: string; message?: string; details?: Array<{ field: string; message: string }> };
    super(envelope.message ?? `The request failed (HTTP ${status})`);
    this.status = status;
    this.code = envelope.error ?? 'ERROR';
    this.details = envelope.details ?? [];
    this.retryAt = retryAt;
  }
}

/** Unwraps an openapi-fetch result: the data, or an ApiError. */
export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok) {
    const wait = retryAfterMs(response.headers.get('retry-after'));
    throw new ApiError(response.status, error, wait === undefined ? undefined : Date.now() + wait);
  }
  return data as T;
}

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

const sameDeps = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((value, index) => Object.is(value, b[index]));

/** Loads on mount and whenever `deps` change; reload() loads again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [round, setRound] = useState(0);
  const wanted = [...deps, round];
  // What the last answer was for: loading is "that is not what is wanted now", so nothing is set
  // when a load starts, and the previous data stays shown until the next answer replaces it.
  const [state, setState] = useState<{ data: T | undefined; error: Error | undefined; for: unknown[] | undefined }>({
    data: undefined,
    error: undefined,
    for: undefined,
  });
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ data, error: undefined, for: wanted }),
      (error: Error) => live && setState((previous) => ({ data: previous.data, error, for: wanted })),
    );
    return () => {
      live = false;
    };
    // The caller names what the load depends on (`deps`), as with useEffect's own list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, wanted);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const loading = state.for === undefined || !sameDeps(state.for, wanted);
  return { data: state.data, error: loading ? undefined : state.error, loading, reload };
}
