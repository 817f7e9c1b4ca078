// The last pass over the OpenAPI document @fastify/swagger builds from the route schemas: what the
// route schemas cannot say by themselves. A parameter with a default is optional; every response
// declares the headers the server sets on it; every body has an example; the error envelope's
// example names the code the status carries.
import { ERROR_RESPONSE_DESCRIPTIONS } from './error-envelope.ts';
import { exampleOf, pathParameterExample, REQUEST_EXAMPLES } from './openapi-examples.ts';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Reusable response headers (components.headers). */
export const RESPONSE_HEADERS: Record<string, Json> = {
  XRequestId: {
    description: 'The id of this request (the one given in X-Request-Id, else a new UUID); quote it when reporting a problem',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of the caller\'s per-minute allowance: `"per-key";r=<remaining>;t=<seconds until the window resets>`',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description: 'The allowance: `"per-key";q=<requests>;w=<window seconds>`',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description: 'Seconds to wait before trying again',
    schema: { type: 'string' },
  },
  Deprecation: {
    description: 'The operation is deprecated: `@<unix seconds>`, when it was (RFC 9745). See docs/versioning.md',
    schema: { type: 'string' },
  },
  Sunset: {
    description: 'When the deprecated operation may stop answering, an HTTP date (RFC 8594)',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key (nothing ran again)',
    schema: { type: 'string', enum: ['true'] },
  },
};

const ERROR_CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_ERROR',
  502: 'WEBHOOK_UNREACHABLE',
  503: 'SERVICE_UNAVAILABLE',
};

function operations(document: Json): Array<{ path: string; method: string; operation: Json }> {
  const found: Array<{ path: string; method: string; operation: Json }> = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) if (item[method]) found.push({ path, method, operation: item[method] as Json });
  }
  return found;
}

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

function errorExample(status: number, path: string, code: string | undefined): Json {
  const example: Json = {
    status,
    error: code ?? 'BAD_REQUEST',
    message: ERROR_RESPONSE_DESCRIPTIONS[status] ?? 'Error',
    timestamp: '2026-03-02T09:30:00.000Z',
    path,
  };
  if (status === 422) example.details = [{ field: 'position', message: 'is required' }];
  return example;
}

/** `extra.schemas`: component schemas no route names (the webhook event bodies). */
export function finishDocument<T extends object>(document: T, extra: { schemas?: Record<string, unknown> } = {}): T {
  const doc = document as Json;
  const components = (doc.components ??= {}) as Json;
  // Only the headers some response names (a component nothing uses is a lint warning).
  const { Deprecation, Sunset, ...always } = RESPONSE_HEADERS;
  components.headers = { ...(components.headers as Json | undefined), ...always };
  const schemas = (components.schemas = { ...(components.schemas as Json | undefined), ...extra.schemas }) as Record<string, Json>;

  for (const { path, operation } of operations(doc)) {
    const parameters = (operation.parameters ?? []) as Json[];
    for (const parameter of parameters) {
      const schema = parameter.schema as Json | undefined;
      // The server fills in the default: a client need not send it (page, size...).
      if (parameter.in === 'query' && schema && schema.default !== undefined) delete parameter.required;
      if (parameter.in === 'path') {
        const example = pathParameterExample(path, parameter.name as string);
        if (example !== undefined) parameter.example = example;
      }
    }
    const authenticated = Array.isArray(operation.security) && operation.security.length > 0;
    const idempotent = parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key');

    const requestBody = operation.requestBody as Json | undefined;
    const requestExample = REQUEST_EXAMPLES[operation.operationId as string];
    const requestMedia = (requestBody?.content as Record<string, Json> | undefined)?.['application/json'];
    if (requestMedia && requestExample !== undefined) requestMedia.example = requestExample;

    for (const [statusText, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
      const status = Number(statusText);
      const headers = (response.headers ??= {}) as Json;
      headers['X-Request-Id'] = ref('XRequestId');
      if (authenticated) {
        headers.RateLimit = ref('RateLimit');
        headers['RateLimit-Policy'] = ref('RateLimitPolicy');
      }
      if (status === 429 || status === 503) headers['Retry-After'] = ref('RetryAfter');
      if (idempotent && status < 500) headers['Idempotent-Replayed'] = ref('IdempotentReplayed');
      if (operation.deprecated) {
        Object.assign(components.headers as Json, { Deprecation, Sunset });
        headers.Deprecation = ref('Deprecation');
        headers.Sunset = ref('Sunset');
      }
      const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
      if (!media || media.example !== undefined) continue;
      const schema = media.schema as Json | undefined;
      if (status >= 400) media.example = errorExample(status, path.replace(/\{[^}]+\}/g, (name) => pathParameterExample(path, name.slice(1, -1)) ?? 'x'), ERROR_CODE_BY_STATUS[status]);
      else if (schema) media.example = exampleOf(schema, schemas);
    }
  }
  for (const item of Object.values((doc.webhooks ?? {}) as Record<string, Json>)) {
    const media = ((item.post as Json | undefined)?.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
    const json = media?.['application/json'];
    if (json?.schema && json.example === undefined) json.example = exampleOf(json.schema as Json, schemas);
  }
  return document;
}
