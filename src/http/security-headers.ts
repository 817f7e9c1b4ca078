// Security headers on every response (helmet's, computed once: @fastify/helmet built helmet's
// middleware again for every request, parsing the policy each time). The Content-Security-Policy allows only
// this origin: the /docs reference (Scalar, served locally) and a dashboard built into static files
// work offline and load nothing from elsewhere. The only inline code, Scalar's few-line start-up
// script on the /docs page, is allowed by its SHA-256 hash, computed from the page as it is sent, so
// no 'unsafe-inline' script is ever allowed.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Component libraries (Scalar's, a dashboard's) set styles at run time.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** 'sha256-...' sources for the inline scripts of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`,
  );
}

/** The headers helmet sets with these options (it sets the same ones on every response). */
function helmetHeaders(options: HelmetOptions): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = { setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]), removeHeader: () => {} };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      // Upgrading would break plain-http development on localhost; behind TLS it is harmless.
      directives: options.https ? { ...DIRECTIVES, upgradeInsecureRequests: [] } : DIRECTIVES,
    },
    // HSTS only means something over https (and must not pin a development localhost to https).
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  // On the raw response, as helmet does: routes that answer by hand (the OAuth provider) get them too.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload === 'string' && request.url.startsWith('/docs') && String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      const hashes = inlineScriptHashes(payload);
      const policy = reply.getHeader('content-security-policy');
      if (hashes.length > 0 && typeof policy === 'string') {
        reply.header('content-security-policy', policy.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`));
      }
    }
    done(null, payload);
  });
}
