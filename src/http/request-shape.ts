// Two rules about requests that reach no handler as they are (docs/decisions.md, "Unknown query
// parameters" and "405 Method Not Allowed"):
// - an operation refuses query parameters it does not document (422 naming each), on every
//   operation alike: a typo such as `?stauts=ACTIVE` must not silently list everything;
// - a known path called with a method it does not have answers 405 with `Allow`, not 404. The path
//   belongs to the most specific route that matches it (a literal segment wins over a parameter,
//   as Fastify's router chooses), and `Allow` lists that route's methods only.
//
// Fastify's router keeps one tree per method, so `GET /candidates/import` (where only POST exists)
// is routed to `GET /candidates/:id`: the check against the owning route runs on those routes too
// (registerMisroutedMethods), or the template's handler would answer for a path that is not its.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { errorBody } from './error-envelope.ts';

interface KnownPath {
  url: string;
  pattern: RegExp;
  /** Per segment: 2 a literal, 1 a parameter, 0 a wildcard; the greater array (compared in order) wins. */
  rank: number[];
  methods: Set<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes' paths as the request shape rules see them (registerRequestShape). */
    knownPaths: KnownPaths;
  }
}

const segmentsOf = (url: string) => url.split('/').slice(1);
const isParameter = (segment: string) => segment.startsWith(':');

/** A Fastify route URL as a pattern: `:id` is one segment, `*` the rest. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : isParameter(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

function rankOf(url: string): number[] {
  return segmentsOf(url).map((segment) => (segment === '*' ? 0 : isParameter(segment) ? 1 : 2));
}

function moreSpecific(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] > b[i];
  return a.length > b.length;
}

class KnownPaths {
  private readonly byUrl = new Map<string, KnownPath>();
  /** Routes whose paths a more specific route can take: only their requests pay for the check. */
  private shadowable: Set<string> | undefined;

  add(url: string, methods: string[]): void {
    const entry = this.byUrl.get(url) ?? { url, pattern: patternOf(url), rank: rankOf(url), methods: new Set<string>() };
    for (const method of methods) entry.methods.add(method);
    this.byUrl.set(url, entry);
    this.shadowable = undefined;
  }

  /** The route that owns `path`: the most specific of those matching it. */
  ownerOf(path: string): KnownPath | undefined {
    let owner: KnownPath | undefined;
    for (const entry of this.byUrl.values()) {
      if (entry.pattern.test(path) && (!owner || moreSpecific(entry.rank, owner.rank))) owner = entry;
    }
    return owner;
  }

  /** Whether some path matched by `url` is owned by a more specific route. */
  isShadowable(url: string): boolean {
    this.shadowable ??= this.findShadowable();
    return this.shadowable.has(url);
  }

  private findShadowable(): Set<string> {
    const found = new Set<string>();
    for (const template of this.byUrl.values()) {
      const own = segmentsOf(template.url);
      for (const other of this.byUrl.values()) {
        if (other === template || !moreSpecific(other.rank, template.rank)) continue;
        // A path both match, if there is one: the other's segments, its parameters filled with
        // the template's literals where it has them.
        const witness = segmentsOf(other.url).flatMap((segment, i) => {
          if (segment === '*') return own.slice(i).map((s) => (isParameter(s) || s === '*' ? 'x' : s));
          if (!isParameter(segment)) return [segment];
          return [own[i] && !isParameter(own[i]) && own[i] !== '*' ? own[i] : 'x'];
        });
        const path = `/${witness.join('/')}`;
        if (template.pattern.test(path) && other.pattern.test(path)) found.add(template.url);
      }
    }
    return found;
  }
}

function methodNotAllowed(request: FastifyRequest, reply: FastifyReply, path: string, owner: KnownPath): FastifyReply {
  const allow = [...owner.methods].sort().join(', ');
  return reply
    .status(405)
    .header('Allow', allow)
    .send(errorBody(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; allowed: ${allow}`, request.url));
}

export function registerRequestShape(app: FastifyInstance): {
  notFound: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
} {
  const known = new KnownPaths();
  app.decorate('knownPaths', known);

  app.addHook('onRoute', (route) => {
    known.add(route.url, [route.method].flat());

    // Operations of the API (those with an auth declaration): no undocumented query parameter.
    if (!route.config?.auth) return;
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const querystring = (schema.querystring as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} };
    route.schema = { ...schema, querystring: { ...querystring, additionalProperties: false } };
  });

  return {
    /** For the not-found handler: answers 405 when the path exists with other methods; undefined otherwise. */
    notFound(request, reply) {
      const path = request.url.split('?')[0];
      const owner = known.ownerOf(path);
      if (!owner || owner.methods.has(request.method)) return undefined;
      return methodNotAllowed(request, reply, path, owner);
    },
  };
}

/**
 * On a route with parameters: answers 405 when the path belongs to a more specific route that lacks
 * the method (Fastify routed it here only because its tree for this method has no literal).
 * Registered after authentication and before the rate limit, so the check runs after the limit
 * (the answer counts and carries its headers) and before authentication (405 whoever calls, as
 * for a method no route of the path has).
 */
export function registerMisroutedMethods(app: FastifyInstance): void {
  const known = app.knownPaths;
  app.addHook('onRoute', (route) => {
    if (!route.url.includes(':') && !route.url.includes('*')) return;
    const url = route.url;
    const check: onRequestHookHandler = (request, reply, done) => {
      if (!known.isShadowable(url)) return done();
      const path = request.url.split('?')[0];
      const owner = known.ownerOf(path);
      if (!owner || owner.url === url || owner.methods.has(request.method)) return done();
      methodNotAllowed(request, reply, path, owner);
    };
    route.onRequest = [check, ...(route.onRequest ? [route.onRequest].flat() : [])];
  });
}
