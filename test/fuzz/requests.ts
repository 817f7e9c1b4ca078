// Requests for one OpenAPI operation, as a fast-check arbitrary: path ids that hit the caller's
// own resources, another company's, none, or nothing like an id; query strings, headers and
// bodies that are valid or mutated. Every request says how it was made (`notes`) so a failure
// report can tell what broke it.
import fc from 'fast-check';
import { fuzzValue, hostileFor, hostileString, validValue, type GenContext, type Schema } from './schema-arbitrary.ts';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  /** "POST /public/v1/job-listings/{id}/publish" */
  id: string;
  method: string;
  path: string;
  /** The statuses the document lists for this operation. */
  statuses: Set<number>;
  parameters: Parameter[];
  body: Schema | undefined;
}

export type ResourceKind = 'listing' | 'candidate' | 'application' | 'webhook' | 'delivery';

export interface Pools {
  own: Record<ResourceKind, string[]>;
  other: Record<ResourceKind, string[]>;
  keys: { full: string; readOnly: string; narrow: string; revoked: string };
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload: string | Buffer | undefined;
  /** How the request was made: "id=other listing", "body: removed position"... */
  notes: string[];
}

/** Builds the operations of an OpenAPI document (only the JSON-API ones: /public/...). */
export function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        statuses: new Set(Object.keys(op.responses as object).map(Number)),
        parameters: ((op.parameters as Parameter[] | undefined) ?? []).map((p) => ({ ...p, required: Boolean(p.required) })),
        body: content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

const KIND_BY_SEGMENT: Record<string, ResourceKind> = {
  'job-listings': 'listing',
  candidates: 'candidate',
  applications: 'application',
  webhooks: 'webhook',
  deliveries: 'delivery',
};
const KINDS = Object.values(KIND_BY_SEGMENT);

/** The kind of resource a path parameter names: the collection segment just before it. */
function kindOfPathParam(path: string, name: string): ResourceKind | undefined {
  const segments = path.split('/');
  const index = segments.indexOf(`{${name}}`);
  return KIND_BY_SEGMENT[segments[index - 1]];
}

/** encodeURIComponent, except that a lone surrogate goes out as its raw (invalid UTF-8) bytes. */
export function encodeLoosely(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    let out = '';
    for (const char of value) {
      const code = char.charCodeAt(0);
      if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
        out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
      } else out += encodeURIComponent(char);
    }
    return out;
  }
}

/** Already-encoded URL text that decodes badly or surprisingly. */
const rawUrlGarbage = fc.constantFrom('%', '%zz', '%00', '%ED%A0%80', '%C0%AF', '%FF', '%2F', '..', '%2e%2e', 'a%2Fb', '%0A', '+', '%20');

interface Piece {
  text: string;
  note: string;
}

function pathValue(op: Operation, param: Parameter, pools: Pools, ctx: GenContext, mutated: boolean): fc.Arbitrary<Piece> {
  const kind = kindOfPathParam(op.path, param.name);
  const hostile = fc.oneof(
    hostileString.filter((s) => s.length > 0).map((s) => s.slice(0, 300)).map((s) => ({ text: encodeLoosely(s), note: `${param.name}=hostile ${JSON.stringify(s.slice(0, 40))}` })),
    rawUrlGarbage.map((s) => ({ text: s, note: `${param.name}=raw ${s}` })),
    hostileFor(param.schema).map((v) => String(typeof v === 'string' ? v : JSON.stringify(v)).slice(0, 300) || 'x').map((s) => ({ text: encodeLoosely(s), note: `${param.name}=hostile ${JSON.stringify(s.slice(0, 40))}` })),
    fc.integer({ min: 37, max: 400 }).map((n) => ({ text: 'a'.repeat(n), note: `${param.name}=${n} characters` })),
  );
  if (!kind) {
    const valid = validValue(param.schema, ctx, param.name).map((v) => ({ text: encodeLoosely(String(v)), note: `${param.name}=${String(v)}` }));
    return mutated ? fc.oneof({ weight: 1, arbitrary: valid }, { weight: 2, arbitrary: hostile }) : valid;
  }
  const from = (ids: string[], label: string) =>
    ids.length > 0 ? fc.constantFrom(...ids).map((id) => ({ text: id, note: `${param.name}=${label}` })) : fc.uuid().map((id) => ({ text: id, note: `${param.name}=random uuid` }));
  const otherKinds = KINDS.filter((k) => k !== kind).flatMap((k) => pools.own[k]);
  const ids: Array<fc.WeightedArbitrary<Piece>> = [
    { weight: 8, arbitrary: from(pools.own[kind], `own ${kind}`) },
    { weight: 3, arbitrary: from(pools.other[kind], `other company's ${kind}`) },
    { weight: 1, arbitrary: from(otherKinds, 'own id of another kind') },
    { weight: 1, arbitrary: fc.uuid().map((id) => ({ text: id, note: `${param.name}=random uuid` })) },
  ];
  return mutated ? fc.oneof({ weight: 1, arbitrary: fc.oneof(...ids) }, { weight: 2, arbitrary: hostile }) : fc.oneof(...ids);
}

function queryPieces(param: Parameter, ctx: GenContext, mutated: boolean): fc.Arbitrary<Piece[]> {
  const name = encodeURIComponent(param.name);
  const valid = validValue(param.schema, ctx, param.name).map((value) => {
    const values = Array.isArray(value) ? value : [value];
    return values.map((v) => ({ text: `${name}=${encodeLoosely(String(v))}`, note: `${param.name}=${String(v)}` }));
  });
  const itemSchema = (param.schema.type === 'array' ? param.schema.items : param.schema) as Schema;
  const hostile = fc.oneof(
    hostileFor(itemSchema).map((v) => [{ text: `${name}=${encodeLoosely(typeof v === 'string' ? v : JSON.stringify(v) ?? '')}`, note: `${param.name}=hostile ${JSON.stringify(v)?.slice(0, 40)}` }]),
    hostileFor(itemSchema).map((v) => [{ text: `${name}=${encodeLoosely(typeof v === 'string' ? v : JSON.stringify(v) ?? '')}`, note: `${param.name}=hostile ${JSON.stringify(v)?.slice(0, 40)}` }]),
    hostileString.map((s) => s.slice(0, 5_000)).map((s) => [{ text: `${name}=${encodeLoosely(s)}`, note: `${param.name}=hostile ${JSON.stringify(s.slice(0, 40))}` }]),
    rawUrlGarbage.map((s) => [{ text: `${name}=${s}`, note: `${param.name}=raw ${s}` }]),
    fc.constant<Piece[]>([{ text: name, note: `${param.name} without =` }]),
    fc.tuple(validValue(param.schema, ctx, param.name), hostileString).map(([v, s]) => [
      { text: `${name}=${encodeLoosely(String(v))}`, note: `${param.name}=${String(v)}` },
      { text: `${name}=${encodeLoosely(s)}`, note: `${param.name} repeated, hostile ${JSON.stringify(s.slice(0, 40))}` },
    ]),
  );
  const presence = param.required ? 0.85 : 0.45;
  return fc.double({ min: 0, max: 1, noNaN: true }).chain((roll) =>
    roll >= presence ? fc.constant([]) : mutated ? fc.oneof({ weight: 1, arbitrary: valid }, { weight: 2, arbitrary: hostile }) : valid,
  );
}

const unknownQuery = fc.oneof(
  fc.constant<Piece[]>([]),
  fc.constantFrom<Piece[]>(
    [{ text: 'unknown=1', note: 'unknown query parameter' }],
    [{ text: '__proto__[x]=1', note: 'query __proto__' }],
    [{ text: 'page[]=1', note: 'query page[]' }],
    [{ text: '&&=&', note: 'query &&=&' }],
    [{ text: `q=${'a'.repeat(5000)}`, note: 'query q 5000 characters' }],
  ),
);

const HEADER_TEXT = ['', ' ', 'x'.repeat(300), 'é', 'a b', 'null', '0', '\t', 'rk_live_', '*'];

function apiKeyHeader(pools: Pools): fc.Arbitrary<Piece | null> {
  return fc.oneof(
    { weight: 24, arbitrary: fc.constant({ text: pools.keys.full, note: 'key: all scopes' }) },
    { weight: 2, arbitrary: fc.constant({ text: pools.keys.readOnly, note: 'key: read scopes only' }) },
    { weight: 1, arbitrary: fc.constant({ text: pools.keys.narrow, note: 'key: one unrelated scope' }) },
    { weight: 1, arbitrary: fc.constant({ text: pools.keys.revoked, note: 'key: revoked' }) },
    { weight: 1, arbitrary: fc.constantFrom(...HEADER_TEXT, `${pools.keys.full}x`, pools.keys.full.slice(0, -1) + 'A').map((text) => ({ text, note: `key: ${JSON.stringify(text.slice(0, 20))}` })) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8'];
const OTHER_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/merge-patch+json', 'APPLICATION/JSON', 'application/jsonx', 'application/json; charset=latin1', ''];

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...JSON_TYPES) },
  { weight: 2, arbitrary: fc.constantFrom(...OTHER_TYPES) },
  { weight: 1, arbitrary: fc.constant(null) },
);

const acceptLanguage = fc.oneof(
  fc.constantFrom('de', 'de-CH, de;q=0.9, en;q=0.5', 'fr-FR', '*', 'en;q=0', 'xx', ';;;', 'de;q=abc', 'pt-BR,pt;q=0.8', 'a'.repeat(200), 'x-klingon'),
  fc.array(fc.constantFrom('de', 'en-US', 'fr;q=0.5', 'zh-Hant-TW;q=0.1', '*;q=0.2'), { minLength: 2, maxLength: 40 }).map((parts) => parts.join(',')),
);

const idempotencyKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz-3') },
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9-]{8,40}$/) },
  { weight: 1, arbitrary: fc.constantFrom('has space', 'é', 'x'.repeat(256), '', '\t') },
);

/** Bodies that are not a JSON rendering of any value. */
const rawBody = fc.oneof(
  fc.constantFrom(
    '{',
    '{"position":',
    'not json',
    'null',
    '[]',
    '123',
    '"text"',
    '{"a":1,"a":2}',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '1e999',
    '\ufeff{}',
    '{"position":"\\ud800"}',
    '{"position":"\\u0000"}',
    '   ',
  ),
  fc.integer({ min: 1_000, max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.constantFrom(10_000, 100_000).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
);

/** The part of a request that is mutated: none (a valid request), or exactly one. */
export type Mode = 'valid' | 'path' | 'query' | 'headers' | 'body' | 'raw body';

function bodyFor(op: Operation, ctx: GenContext, mode: Mode): fc.Arbitrary<{ payload: string | Buffer | undefined; note: string }> {
  const nothing = fc.constant({ payload: undefined, note: 'no body' });
  if (mode === 'raw body') {
    return fc.oneof(
      { weight: 6, arbitrary: rawBody.map((payload) => ({ payload, note: `raw body ${JSON.stringify(payload.slice(0, 40))}${payload.length > 40 ? `... (${payload.length} chars)` : ''}` })) },
      { weight: 1, arbitrary: fc.constant({ payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), note: 'body with invalid UTF-8' }) },
      { weight: 1, arbitrary: fc.constant({ payload: `{"position":"${'x'.repeat(1_100_000)}"}`, note: 'body over 1 MB' }) },
      { weight: 1, arbitrary: op.body ? nothing : fc.constant({ payload: '{}', note: 'body {}' }) },
    );
  }
  if (!op.body) return nothing;
  if (mode === 'body') return fuzzValue(op.body, ctx).map(({ value, mutation }) => ({ payload: JSON.stringify(value) as string | undefined, note: `body ${mutation}` }));
  return validValue(op.body, ctx).map((value) => ({ payload: JSON.stringify(value) as string | undefined, note: 'body valid' }));
}

export function requestFor(op: Operation, pools: Pools, ctx: GenContext): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const modes: Mode[] = ['valid', 'valid', 'headers', 'raw body'];
  if (pathParams.length > 0) modes.push('path');
  if (queryParams.length > 0) modes.push('query', 'query');
  if (op.body) modes.push('body', 'body', 'body');
  // One parameter is mutated at a time: a second bad one would be refused first and hide it.
  const params = Math.max(pathParams.length, queryParams.length, 1);
  return fc.tuple(fc.constantFrom(...modes), fc.nat(params - 1)).chain(([mode, target]) => requestIn(mode, target, op, pools, ctx));
}

function requestIn(mode: Mode, target: number, op: Operation, pools: Pools, ctx: GenContext): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const declaredHeaders = new Set(op.parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()));
  const isPost = op.method === 'POST';
  const headersMutated = mode === 'headers';
  const optional = <T>(arb: fc.Arbitrary<T>, chance: number) =>
    fc.double({ min: 0, max: 1, noNaN: true }).chain((roll) => (roll < chance ? arb : fc.constant(null)));
  const validKey = fc.oneof(
    { weight: 30, arbitrary: fc.constant({ text: pools.keys.full, note: 'key: all scopes' }) },
    { weight: 1, arbitrary: fc.constant({ text: pools.keys.readOnly, note: 'key: read scopes only' }) },
  );
  const validLanguage = fc.constantFrom('de', 'de-CH, de;q=0.9, en;q=0.5', 'fr', 'en');

  return fc
    .record({
      path: fc.tuple(...pathParams.map((p, i) => pathValue(op, p, pools, ctx, mode === 'path' && i === target % pathParams.length).map((piece) => ({ name: p.name, piece })))),
      query: fc.tuple(...queryParams.map((p, i) => queryPieces(p, ctx, mode === 'query' && i === target % queryParams.length)), mode === 'query' ? unknownQuery : fc.constant<Piece[]>([])),
      apiKey: headersMutated ? apiKeyHeader(pools) : validKey,
      body: bodyFor(op, ctx, mode),
      contentType: headersMutated || mode === 'raw body' ? contentType : fc.constantFrom(...JSON_TYPES),
      acceptLanguage: optional(headersMutated ? acceptLanguage : validLanguage, declaredHeaders.has('accept-language') ? 0.4 : headersMutated ? 0.2 : 0),
      idempotencyKey: optional(headersMutated ? idempotencyKey : fc.uuid(), isPost ? 0.3 : headersMutated ? 0.1 : 0),
      requestId: optional(fc.constantFrom('req-123', 'a'.repeat(200), 'has space', 'é'), headersMutated ? 0.3 : 0),
      contentEncoding: optional(fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x-unknown'), headersMutated ? 0.2 : 0),
      accept: optional(fc.constantFrom('text/html', 'application/xml', '*/*', 'application/json;q=0'), headersMutated ? 0.2 : 0),
    })
    .map((parts) => {
      const notes: string[] = [`mutated: ${mode}`];
      let url = op.path;
      for (const { name, piece } of parts.path) {
        url = url.replace(`{${name}}`, piece.text);
        notes.push(piece.note);
      }
      const query = parts.query.flat();
      if (query.length > 0) url += `?${query.map((piece) => piece.text).join('&')}`;
      notes.push(...query.map((piece) => piece.note));

      const headers: Record<string, string> = {};
      if (parts.apiKey) headers['x-api-key'] = parts.apiKey.text;
      notes.push(parts.apiKey?.note ?? 'no key');
      if (parts.body.payload !== undefined) {
        if (parts.contentType !== null) headers['content-type'] = parts.contentType;
        notes.push(parts.body.note, `content-type: ${parts.contentType ?? '(none)'}`);
      } else notes.push('no body');
      if (parts.acceptLanguage !== null) {
        headers['accept-language'] = parts.acceptLanguage;
        notes.push(`accept-language: ${parts.acceptLanguage.slice(0, 60)}`);
      }
      if (parts.idempotencyKey !== null) {
        headers['idempotency-key'] = parts.idempotencyKey;
        notes.push(`idempotency-key: ${JSON.stringify(parts.idempotencyKey.slice(0, 30))}`);
      }
      if (parts.requestId !== null) headers['x-request-id'] = parts.requestId;
      if (parts.contentEncoding !== null) {
        headers['content-encoding'] = parts.contentEncoding;
        notes.push(`content-encoding: ${parts.contentEncoding}`);
      }
      if (parts.accept !== null) headers.accept = parts.accept;
      return { method: op.method, url, headers, payload: parts.body.payload, notes };
    });
}
