import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../shared/errors.ts';

/** Deeper JSON is refused before parsing: later recursive walks (the idempotency fingerprint's
 * JSON.stringify, validation) would overflow the stack on a body nested thousands deep. */
export const MAX_JSON_DEPTH = 32;

/** How deep objects and arrays nest in a JSON text (brackets inside strings do not count). */
export function jsonDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > stopAbove) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/**
 * JSON is the only body type. An empty body with a JSON content type counts as no body (many
 * clients send the header on body-less POSTs such as publish); anything else must parse, with
 * Fastify's own prototype-poisoning protection, and nest at most MAX_JSON_DEPTH levels.
 *
 * `Content-Encoding: gzip` is decoded; the body limit counts the decoded bytes (Fastify applies
 * it to the stream preParsing returns), so a small compressed bomb is a 413. Other encodings: 415.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, body, done) => {
      const text = body as string;
      if (text.trim() === '') return done(null, undefined);
      if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
        return done(new DomainError('BAD_REQUEST', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      }
      return parseJson(request, text, done);
    },
  );

  // A callback hook: most requests are not compressed, and pass without a promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (!encoding || encoding === 'identity') return done(null, payload);
    // Without a body the header describes nothing (a GET, a body-less POST): nothing to refuse.
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return done(null, payload);
    if (encoding !== 'gzip' && encoding !== 'x-gzip') {
      return done(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding must be gzip or identity'), undefined);
    }
    const gunzip = createGunzip() as ReturnType<typeof createGunzip> & { receivedEncodedLength: number };
    // Fastify compares Content-Length with the bytes received, which are the encoded ones.
    gunzip.receivedEncodedLength = 0;
    payload.on('data', (chunk: Buffer) => {
      gunzip.receivedEncodedLength += chunk.length;
    });
    payload.on('error', (error) => gunzip.destroy(error));
    // When Fastify reads the body it listens for errors itself (bad gzip: 400). When it never reads
    // it (a content type it refuses with 415), a decoding error would have no listener and crash
    // the process: this one keeps it an ignored error of a body nobody wanted.
    gunzip.on('error', () => {});
    done(null, payload.pipe(gunzip));
  });
}
