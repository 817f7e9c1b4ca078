// Security headers on every response (@fastify/helmet). The Content-Security-Policy allows only
// this origin: the /docs reference (Scalar, served locally) and a dashboard built into static files
// work offline and load nothing from elsewhere. The only inline code, Scalar's few-line start-up
// script on the /docs page, is allowed by its SHA-256 hash, computed from the page as it is sent, so
// no 'unsafe-inline' script is ever allowed.
import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

export async function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      // Upgrading would break plain-http development on localhost; behind TLS it is harmless.
      directives: options.https ? { ...DIRECTIVES, upgradeInsecureRequests: [] } : DIRECTIVES,
    },
    // HSTS only means something over https (and must not pin a development localhost to https).
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || !request.url.startsWith('/docs')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    const hashes = inlineScriptHashes(payload);
    const policy = reply.getHeader('content-security-policy');
    if (hashes.length > 0 && typeof policy === 'string') {
      reply.header('content-security-policy', policy.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`));
    }
    return payload;
  });
}
