// Conditional GET (RFC 9110, 13.1.2 and 15.4.5; docs/decisions.md, "Conditional GET"): a GET or
// HEAD whose If-None-Match names the ETag the answer would carry gets 304 Not Modified with that
// ETag and no body, so a client that keeps what it read revalidates it without downloading it again.
// One hook for every operation that sends an ETag: the route builds its answer as usual (the tag is
// a digest of that answer) and the body is dropped here, so no route can forget the rule.
//
// A route whose answer is small and the same for many readers (reference data) declares
// `config.entityTagOfBody`: its ETag is a digest of the serialized body, made here. Paginated lists
// have none: their pages shift with every write, and a 304 would save the transfer but not the query.
import type { FastifyInstance } from 'fastify';
import { entityTag, ifNoneMatchMatches } from '../shared/etag.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The ETag of the 200 answer is a digest of its body (conditional-get.ts). */
    entityTagOfBody?: boolean;
  }
}

const ETAG_OF_BODY = { type: 'string', description: 'Version of this answer (changes whenever its content would)' };

const NOT_MODIFIED = {
  type: 'null',
  description: 'Not Modified: `If-None-Match` names the current `ETag`; no body, the ETag again',
  headers: { ETag: { type: 'string', description: 'The current version (the one asked about)' } },
};

const IF_NONE_MATCH = {
  type: 'string',
  description: 'The `ETag` of a copy you keep (or several, comma-separated, or `*`): 304 with no body while it is still current',
};

type Json = Record<string, unknown>;

/** Whether a route's 200 answer declares an ETag (the operations this rule applies to). */
function sendsEntityTag(schema: Json): boolean {
  const ok = (schema.response as Json | undefined)?.[200] as Json | undefined;
  return Boolean((ok?.headers as Json | undefined)?.ETag);
}

export function registerConditionalGet(app: FastifyInstance): void {
  // Documents the 304 and the If-None-Match header on each GET whose 200 carries an ETag.
  app.addHook('onRoute', (route) => {
    let schema = (route.schema ?? {}) as Json;
    if (route.config?.entityTagOfBody) {
      const response = schema.response as Json;
      const ok = response[200] as Json;
      schema = { ...schema, response: { ...response, 200: { ...ok, headers: { ...(ok.headers as Json | undefined), ETag: ETAG_OF_BODY } } } };
      route.schema = schema;
    }
    if (![route.method].flat().includes('GET') || !sendsEntityTag(schema)) return;
    const headers = (schema.headers as Json | undefined) ?? { type: 'object', properties: {} };
    route.schema = {
      ...schema,
      headers: { ...headers, properties: { ...(headers.properties as Json), 'if-none-match': IF_NONE_MATCH } },
      response: { ...(schema.response as Json), 304: NOT_MODIFIED },
    };
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.entityTagOfBody && reply.statusCode === 200 && typeof payload === 'string') {
      reply.header('ETag', entityTag(payload, String(reply.getHeader('content-language') ?? '')));
    }
    const condition = request.headers['if-none-match'];
    if (condition === undefined || reply.statusCode !== 200 || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return done(null, payload);
    }
    const current = reply.getHeader('etag');
    if (typeof current !== 'string' || !ifNoneMatchMatches(condition, current)) return done(null, payload);
    reply.code(304);
    reply.removeHeader('content-type');
    // HEAD keeps its payload for Fastify's HEAD hook, which only counts it for Content-Length (the
    // 200's length, which RFC 9110 allows on a 304) and sends none.
    if (request.method === 'HEAD') return done(null, payload);
    reply.removeHeader('content-length');
    done(null, null);
  });
}
