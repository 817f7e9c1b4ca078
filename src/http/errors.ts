// Maps every error the server produces to the contract's envelope, in one place.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseBusy } from '../db/client.ts';
import { isDatabaseConnectionLost } from '../db/connection-errors.ts';
import { DomainError, type ErrorCode } from '../shared/errors.ts';
import { errorBody, errorResponses, type ApiErrorCode } from './error-envelope.ts';
import { detailsFromAjv, withBodyChecks } from './validation.ts';

const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  410: 'GONE',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR',
  429: 'TOO_MANY_REQUESTS',
};

/** "1 MB", "14 MB", "900 KB": a body limit as a person reads it. */
function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.ceil(bytes / (1024 * 1024))} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The one place a domain error's code becomes an HTTP status. */
export const STATUS_BY_ERROR_CODE: Record<ErrorCode, number> = {
  NOT_FOUND: 404,
  CONFLICT: 409,
  VALIDATION_ERROR: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  HTTPS_REQUIRED: 403,
  BAD_REQUEST: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  // An uploaded file larger than FILE_MAX_BYTES.
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  // The receiver, not this service, failed: a gateway error.
  WEBHOOK_UNREACHABLE: 502,
  // The sign-in interaction is gone (expired, or another browser's): start again.
  SIGN_IN_EXPIRED: 400,
  // The identity provider did not vouch for the e-mail address.
  EMAIL_NOT_VERIFIED: 403,
  // If-Match named another version of the resource than the current one.
  PRECONDITION_FAILED: 412,
  // A public listing that is no longer open (the job board).
  GONE: 410,
};

/** The database cannot serve the request now, though it may in a moment: 503 with Retry-After. */
interface DatabaseUnavailable {
  log: string;
  message: string;
  /** Seconds. */
  retryAfter: string;
}

/** A lock held too long or every pooled connection taken. */
const DATABASE_BUSY: DatabaseUnavailable = { log: 'database busy', message: 'The database is busy; try again shortly', retryAfter: '5' };

/**
 * The connection was lost or could not be made (a terminated session, a restart, a failover, the
 * network). A terminated session is replaced at the next query and a restart takes seconds: a
 * shorter wait than for a lock.
 */
const DATABASE_CONNECTION_LOST: DatabaseUnavailable = {
  log: 'database connection lost',
  message: 'The database could not be reached; try again shortly',
  retryAfter: '2',
};

/** `notFound`: answers first when a request matches no route (405 on a known path); undefined to fall through to 404. */
export function registerErrorHandling(
  app: FastifyInstance,
  options: { notFound?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined } = {},
): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      const status = STATUS_BY_ERROR_CODE[error.code];
      return reply.status(status).send(errorBody(status, error.code, error.message, request.url, error.details));
    }
    if (error.validation) {
      let details = detailsFromAjv(error.validation as never, error.validationContext);
      const checks = request.routeOptions.config.bodyChecks;
      if (checks && error.validationContext === 'body') details = await withBodyChecks(details, request.body, checks);
      return reply
        .status(422)
        .send(errorBody(422, 'VALIDATION_ERROR', 'Request validation failed', request.url, details));
    }
    const unavailable = isDatabaseBusy(error) ? DATABASE_BUSY : isDatabaseConnectionLost(error) ? DATABASE_CONNECTION_LOST : undefined;
    if (unavailable) {
      request.log.warn({ err: error }, unavailable.log);
      return reply
        .status(503)
        .header('Retry-After', unavailable.retryAfter)
        .send(errorBody(503, 'SERVICE_UNAVAILABLE', unavailable.message, request.url));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send(errorBody(500, 'INTERNAL_ERROR', 'Internal server error', request.url));
    }
    let message = error.message;
    if (status === 400) message = /^Z_/.test(String(error.code)) ? 'Request body is not valid gzip' : 'Malformed JSON body';
    if (status === 413) message = `Request body is larger than ${describeBytes(request.routeOptions.bodyLimit ?? 1024 * 1024)}`;
    if (status === 415) message = 'Request body must be JSON (Content-Type: application/json)';
    return reply.status(status).send(errorBody(status, CODE_BY_STATUS[status] ?? 'BAD_REQUEST', message, request.url));
  });

  // Document on every route the errors this handler produces for it, so the OpenAPI document
  // names them without each route repeating them. (New schema object: see auth.ts on HEAD twins.)
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    if (schema.hide) return;
    const statuses = [500, 503];
    // Every method but GET and HEAD has its body parsed, whether the route reads one or not: a
    // body that is not JSON (415), too large (413) or malformed (400) is refused on all of them.
    const methods = [route.method].flat();
    if (methods.some((method) => method !== 'GET' && method !== 'HEAD')) statuses.push(400, 413, 415);
    // A path parameter that does not decode (400, frameworkErrorHandler) or is too long (414).
    if (schema.params) statuses.push(400, 414);
    if (schema.body || schema.querystring || schema.params || schema.headers) statuses.push(422);
    route.schema = { ...schema, response: { ...errorResponses([...new Set(statuses)]), ...(schema.response as object) } };
  });

  app.setNotFoundHandler(
    (request, reply) =>
      options.notFound?.(request, reply) ??
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

// --- errors from Node's HTTP parser, before Fastify sees a request --------------------------------

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time' },
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { status: 400, message: 'Content-Length together with Transfer-Encoding' },
  HPE_INVALID_CONTENT_LENGTH: { status: 400, message: 'Invalid or repeated Content-Length' },
  HPE_INVALID_TRANSFER_ENCODING: { status: 400, message: 'Invalid Transfer-Encoding' },
};

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 417: 'Expectation Failed', 431: 'Request Header Fields Too Large' };

CODE_BY_STATUS[408] = 'REQUEST_TIMEOUT';
CODE_BY_STATUS[417] = 'EXPECTATION_FAILED';
CODE_BY_STATUS[431] = 'REQUEST_HEADER_FIELDS_TOO_LARGE';

/** The path of a request the parser refused, when its request line is still readable. */
function pathOf(rawPacket: unknown): string {
  const line = Buffer.isBuffer(rawPacket) ? rawPacket.subarray(0, 2048).toString('latin1') : '';
  return /^[A-Z]{3,10} (\/[\x21-\x7e]*) HTTP\/1\.[01]\r?\n/.exec(line)?.[1] ?? '/';
}

/** A complete HTTP/1.1 error response in the envelope; the connection closes after it. */
export function rawErrorResponse(status: number, message: string, path: string): string {
  const body = JSON.stringify(errorBody(status, CODE_BY_STATUS[status] ?? 'BAD_REQUEST', message, path));
  return [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Fastify's `clientErrorHandler`: what Node's parser refuses (smuggling attempts, repeated
 * Content-Length, oversized headers, a request not received in time) is answered in the envelope
 * with an X-Request-Id, and the connection is closed: after a framing error nothing else on it can
 * be trusted.
 */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, message: 'Malformed HTTP request' };
  this.log.debug({ code: error.code }, 'client error');
  if (socket.writable) socket.end(rawErrorResponse(known.status, known.message, pathOf(error.rawPacket)));
  socket.destroySoon();
}

/** Node answers an Expect header other than 100-continue with a bare 417: the envelope instead. */
export function expectationFailed(request: IncomingMessage, response: ServerResponse): void {
  const path = (request.url ?? '/').split('?')[0];
  const body = JSON.stringify(errorBody(417, 'EXPECTATION_FAILED', 'Only "Expect: 100-continue" is supported', path));
  response.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': randomUUID(),
    connection: 'close',
  });
  response.end(body);
}
