// Deprecating an operation (docs/versioning.md): a route declares `config: { deprecation: { since,
// sunset?, link? } }`; this marks it `deprecated: true` in the OpenAPI document, says so in its
// description, and answers every call with `Deprecation` (RFC 9745: the date it was deprecated, as
// `@<unix seconds>`), `Sunset` (RFC 8594: an HTTP date after which it may stop answering) and a
// `Link` to the migration notes, so clients and their logs notice long before it goes.
import type { FastifyInstance } from 'fastify';

export interface RouteDeprecation {
  /** When the operation was deprecated (ISO date). */
  since: string;
  /** When it may be removed (ISO date); at least 6 months after `since` (docs/versioning.md). */
  sunset?: string;
  /** Where the replacement is described. */
  link?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    deprecation?: RouteDeprecation;
  }
}

/** The three headers for a deprecation. */
export function deprecationHeaders(deprecation: RouteDeprecation): Record<string, string> {
  const since = Date.parse(deprecation.since);
  if (Number.isNaN(since)) throw new Error(`deprecation.since is not a date: ${deprecation.since}`);
  const headers: Record<string, string> = { Deprecation: `@${Math.floor(since / 1000)}` };
  if (deprecation.sunset) {
    const sunset = Date.parse(deprecation.sunset);
    if (Number.isNaN(sunset)) throw new Error(`deprecation.sunset is not a date: ${deprecation.sunset}`);
    headers.Sunset = new Date(sunset).toUTCString();
  }
  if (deprecation.link) headers.Link = `<${deprecation.link}>; rel="deprecation"; type="text/html"`;
  return headers;
}

export function registerDeprecation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const deprecation = route.config?.deprecation;
    if (!deprecation) return;
    const headers = deprecationHeaders(deprecation);
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const note = `**Deprecated** since ${deprecation.since}${deprecation.sunset ? `; it may stop answering after ${deprecation.sunset}` : ''}${
      deprecation.link ? ` (see ${deprecation.link})` : ''
    }. Every answer carries \`Deprecation\`${deprecation.sunset ? ' and `Sunset`' : ''} headers.`;
    route.schema = {
      ...schema,
      deprecated: true,
      description: schema.description ? `${note}\n\n${schema.description}` : note,
    };
    const onSend = route.onSend ? [route.onSend].flat() : [];
    route.onSend = [
      ...onSend,
      async (_request, reply, payload) => {
        for (const [name, value] of Object.entries(headers)) reply.header(name, value);
        return payload;
      },
    ];
  });
}
