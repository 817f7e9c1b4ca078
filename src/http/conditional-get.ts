// Conditional GET (RFC 9110, 13.1.2 and 15.4.5; docs/decisions.md, "Conditional GET"): a GET or
// HEAD whose If-None-Match names the ETag the answer would carry gets 304 Not Modified with that
// ETag and no body, so a client that keeps what it read revalidates it without downloading it again.
// One hook, added to every operation that sends an ETag: the route builds its answer as usual (the
// tag is a digest of that answer) and the body is dropped here, so no route can forget the rule.
//
// A route whose answer is small and the same for many readers (reference data) declares
// `config.entityTagOfBody`: its ETag is a digest of the serialized body, made here. Paginated lists
// have none: their pages shift with every write, and a 304 would save the transfer but not the query.
import type { FastifyInstance, onSendHookHandler } from 'fastify';
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

/**
 * The ETag of a body, remembered for the last body and language it was made for: a route that
 * tags its body answers the same body again and again (reference data), and its digest (a
 * SHA-256 of the body's JSON text) was ~15,000 instructions of an authenticated /enums (~430,000
 * without it, callgrind). Comparing the body with the last one costs far less than hashing it.
 */
function lastTagOfBody(): (payload: string, variant: string) => string {
  let last: { payload: string; variant: string; tag: string } | undefined;
  return (payload, variant) => {
    if (last?.payload !== payload || last.variant !== variant) last = { payload, variant, tag: entityTag(payload, variant) };
    return last.tag;
  };
}

/** The route-level onSend hook of a tagged GET or HEAD: other routes pay nothing for this rule. */
function revalidation(tagOfBody: boolean): onSendHookHandler {
  const tagOf = lastTagOfBody();
  return (request, reply, payload, done) => {
    if (reply.statusCode !== 200) return done(null, payload);
    if (tagOfBody && typeof payload === 'string') {
      reply.header('ETag', tagOf(payload, String(reply.getHeader('content-language') ?? '')));
    }
    const condition = request.headers['if-none-match'];
    const current = reply.getHeader('etag');
    if (condition === undefined || typeof current !== 'string' || !ifNoneMatchMatches(condition, current)) return done(null, payload);
    reply.code(304);
    reply.removeHeader('content-type');
    // HEAD keeps its payload for Fastify's HEAD hook (after this one), which only counts it for
    // Content-Length (the 200's length, which RFC 9110 allows on a 304) and sends none.
    if (request.method === 'HEAD') return done(null, payload);
    reply.removeHeader('content-length');
    done(null, null);
  };
}

export function registerConditionalGet(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.includes('GET') && !methods.includes('HEAD')) return;
    let schema = (route.schema ?? {}) as Json;
    const tagOfBody = Boolean(route.config?.entityTagOfBody);
    if (tagOfBody) {
      const response = schema.response as Json;
      const ok = response[200] as Json;
      schema = { ...schema, response: { ...response, 200: { ...ok, headers: { ...(ok.headers as Json | undefined), ETag: ETAG_OF_BODY } } } };
      route.schema = schema;
    }
    if (!sendsEntityTag(schema)) return;
    // First: on HEAD, Fastify's own hook (last) drops the body this one may need for the tag.
    route.onSend = [revalidation(tagOfBody), ...(route.onSend ? [route.onSend].flat() : [])];
    // Documents the 304 and the If-None-Match header (HEAD shares GET's operation).
    if (!methods.includes('GET')) return;
    const headers = (schema.headers as Json | undefined) ?? { type: 'object', properties: {} };
    route.schema = {
      ...schema,
      headers: { ...headers, properties: { ...(headers.properties as Json), 'if-none-match': IF_NONE_MATCH } },
      response: { ...(schema.response as Json), 304: NOT_MODIFIED },
    };
  });
}
