// Two rules about requests that reach no handler as they are (docs/decisions.md, "Unknown query
// parameters" and "405 Method Not Allowed"):
// - an operation refuses query parameters it does not document (422 naming each), on every
//   operation alike: a typo such as `?stauts=ACTIVE` must not silently list everything;
// - a known path called with a method it does not have answers 405 with `Allow`, not 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-envelope.ts';

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

/** A Fastify route URL as a pattern: `:id` is one segment, `*` the rest. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export function registerRequestShape(app: FastifyInstance): {
  notFound: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
} {
  const known = new Map<string, KnownPath>();

  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const entry = known.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of methods) entry.methods.add(method);
    known.set(route.url, entry);

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
      const allowed = new Set<string>();
      for (const entry of known.values()) {
        if (entry.pattern.test(path)) for (const method of entry.methods) allowed.add(method);
      }
      if (allowed.size === 0 || allowed.has(request.method)) return undefined;
      const allow = [...allowed].sort().join(', ');
      return reply
        .status(405)
        .header('Allow', allow)
        .send(errorBody(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; allowed: ${allow}`, request.url));
    },
  };
}
