// In production mode the API is HTTPS only: plain-HTTP API calls are refused (403 HTTPS_REQUIRED)
// rather than redirected (a redirect would already have sent the key in clear), and HSTS is sent.
// TLS ends either here (TLS_CERT_FILE/TLS_KEY_FILE) or at a trusted proxy that sets
// X-Forwarded-Proto (believed only from the addresses in TRUST_PROXY).
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../shared/errors.ts';

const HSTS = 'max-age=31536000; includeSubDomains';
// Probes from the platform (load balancer, orchestrator) speak plain HTTP inside the network.
const PROBES = new Set(['/healthz', '/readyz']);

export function registerHttpsOnly(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') {
      reply.header('Strict-Transport-Security', HSTS);
      return;
    }
    if (PROBES.has(request.url.split('?')[0])) return;
    throw new DomainError(403, 'HTTPS_REQUIRED', 'This API is served over HTTPS only');
  });
}
