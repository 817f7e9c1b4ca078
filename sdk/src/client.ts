// The client: openapi-fetch over the generated types, with credentials, retries and paginate().
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.ts';
import { withRetries, type RetryOptions } from './retry.ts';
import { SDK_VERSION } from './version.ts';

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

export interface RecruitingClientOptions {
  /** The API's base URL, e.g. https://api.example.com (no trailing /public/v1). */
  baseUrl: string;
  /** An API key (`rk_live_...`), sent as X-API-Key. */
  apiKey?: string;
  /** A user's OAuth access token, or a function returning the current one; sent as a bearer token. */
  accessToken?: string | (() => string | Promise<string>);
  /** Retries of refused or lost requests (429, 503...), honouring Retry-After. */
  retry?: RetryOptions;
  /** Another fetch (defaults to the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent on every request (e.g. Accept-Language). */
  headers?: Record<string, string>;
}

/** A thrown API error, from paginate() (the plain methods return `{ data, error, response }`). */
export class RecruitingApiError extends Error {
  readonly status: number;
  readonly body: ErrorEnvelope | undefined;
  constructor(status: number, body: ErrorEnvelope | undefined) {
    super(body ? `${status} ${body.error}: ${body.message}` : `HTTP ${status}`);
    this.name = 'RecruitingApiError';
    this.status = status;
    this.body = body;
  }
}

type JsonOk<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;

/** Paths whose GET answers a page (`{ data, pagination }`). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: infer Op } ? (JsonOk<Op> extends { data: unknown[]; pagination: unknown } ? P : never) : never;
}[keyof paths];

type GetOp<P extends ListPath> = paths[P] extends { get: infer Op } ? Op : never;
/** One item of a list path's pages. */
export type ListItem<P extends ListPath> = JsonOk<GetOp<P>> extends { data: Array<infer Item> } ? Item : never;
type Params<P extends ListPath> = GetOp<P> extends { parameters: infer Parameters } ? Parameters : never;
type QueryOf<P extends ListPath> = Params<P> extends { query?: infer Query } ? Omit<NonNullable<Query>, 'page'> : never;
type PathOf<P extends ListPath> = Params<P> extends { path: infer Path } ? (Path extends never ? never : Path) : never;

export type PaginateOptions<P extends ListPath> = {
  /** Filters and `size`; `page` is the iterator's. */
  query?: QueryOf<P>;
} & ([PathOf<P>] extends [never] | [undefined] ? { path?: undefined } : { path: PathOf<P> });

export type RecruitingClient = Client<paths> & {
  /**
   * Every item of a list, page after page: `for await (const listing of client.paginate('/public/v1/job-listings'))`.
   * Follows `pagination.nextCursor` when the server gives one, else page numbers. Throws RecruitingApiError.
   */
  paginate<P extends ListPath>(path: P, options?: PaginateOptions<P>): AsyncIterableIterator<ListItem<P>>;
};

/**
 * Outside a browser the client names itself (and the API release it was generated from) in
 * User-Agent. Not in a browser: there the header is the browser's, and setting one makes a
 * cross-origin request need a preflight.
 */
const inBrowser = typeof (globalThis as { document?: unknown }).document !== 'undefined' || 'WorkerGlobalScope' in globalThis;
const USER_AGENT = `recruiting-sdk/${SDK_VERSION}`;

export function createRecruitingClient(options: RecruitingClientOptions): RecruitingClient {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: withRetries(baseFetch, options.retry),
    headers: {
      ...(inBrowser || Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'user-agent') ? {} : { 'user-agent': USER_AGENT }),
      ...options.headers,
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
    },
  });
  const { accessToken } = options;
  if (accessToken) {
    client.use({
      async onRequest({ request }) {
        const token = typeof accessToken === 'function' ? await accessToken() : accessToken;
        request.headers.set('authorization', `Bearer ${token}`);
        return request;
      },
    });
  }

  async function* paginate<P extends ListPath>(path: P, paginateOptions?: PaginateOptions<P>): AsyncIterableIterator<ListItem<P>> {
    const query: Record<string, unknown> = { ...(paginateOptions?.query as object | undefined) };
    let page = 0;
    let cursor: string | undefined;
    for (;;) {
      const pageQuery = cursor !== undefined ? { ...query, cursor } : { ...query, page };
      // The generic path cannot be narrowed by TypeScript here; the public signature is typed.
      const { data, error, response } = await (client.GET as (path: string, init: unknown) => Promise<{
        data?: { data: ListItem<P>[]; pagination: { page: number; totalPages: number; nextCursor?: string | null } };
        error?: ErrorEnvelope;
        response: Response;
      }>)(path, { params: { query: pageQuery, path: paginateOptions?.path } });
      if (!data) throw new RecruitingApiError(response.status, error);
      yield* data.data;
      const { pagination } = data;
      if ('nextCursor' in pagination) {
        if (!pagination.nextCursor) return;
        cursor = pagination.nextCursor;
      } else {
        if (data.data.length === 0 || page + 1 >= pagination.totalPages) return;
        page += 1;
      }
    }
  }

  return Object.assign(client, { paginate });
}
