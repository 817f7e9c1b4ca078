// Maps every error the server produces to the contract's envelope, in one place.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../shared/errors.ts';
import { errorBody, errorResponses } from './error-envelope.ts';
import { detailsFromAjv } from './validation.ts';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR',
  429: 'TOO_MANY_REQUESTS',
};

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      return reply.status(error.status).send(errorBody(error.status, error.code, error.message, request.url, error.details));
    }
    if (error.validation) {
      const details = detailsFromAjv(error.validation as never, error.validationContext);
      return reply
        .status(422)
        .send(errorBody(422, 'VALIDATION_ERROR', 'Request validation failed', request.url, details));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send(errorBody(500, 'INTERNAL_ERROR', 'Internal server error', request.url));
    }
    let message = error.message;
    if (status === 400) message = 'Malformed JSON body';
    if (status === 413) message = 'Request body is larger than 1 MB';
    if (status === 415) message = 'Request body must be JSON (Content-Type: application/json)';
    return reply.status(status).send(errorBody(status, CODE_BY_STATUS[status] ?? 'ERROR', message, request.url));
  });

  // Document on every route the errors this handler produces for it, so the OpenAPI document
  // names them without each route repeating them. (New schema object: see auth.ts on HEAD twins.)
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    if (schema.hide) return;
    const statuses = [500];
    // Every method but GET and HEAD has its body parsed, whether the route reads one or not: a
    // body that is not JSON (415), too large (413) or malformed (400) is refused on all of them.
    const methods = [route.method].flat();
    if (methods.some((method) => method !== 'GET' && method !== 'HEAD')) statuses.push(400, 413, 415);
    // A path parameter that does not decode (400, frameworkErrorHandler) or is too long (414).
    if (schema.params) statuses.push(400, 414);
    if (schema.body || schema.querystring || schema.params || schema.headers) statuses.push(422);
    route.schema = { ...schema, response: { ...errorResponses([...new Set(statuses)]), ...(schema.response as object) } };
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send(errorBody(404, 'NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`, request.url)),
  );
}

/**
 * Errors Fastify raises before routing (a path that does not decode, an over-long path parameter):
 * the same envelope and X-Request-Id as every other response. Set as Fastify's `frameworkErrors`.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode === 400 || error.statusCode === 414 ? error.statusCode : 500;
  const message = status === 400 ? 'Malformed request URL' : status === 414 ? 'A path parameter is too long' : 'Internal server error';
  void reply
    .header('X-Request-Id', request.id)
    .status(status)
    .send(errorBody(status, CODE_BY_STATUS[status] ?? 'INTERNAL_ERROR', message, request.url));
}
