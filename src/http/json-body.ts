import type { FastifyInstance } from 'fastify';

/**
 * JSON is the only body type. An empty body with a JSON content type counts as no body (many
 * clients send the header on body-less POSTs such as publish); anything else must parse, with
 * Fastify's own prototype-poisoning protection.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, body, done) => {
      if ((body as string).trim() === '') return done(null, undefined);
      return parseJson(request, body as string, done);
    },
  );
}
