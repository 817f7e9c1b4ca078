// One access line per request, written when the response is sent (Fastify's own two lines are
// switched off), and the HTTP metrics recorded from the same facts. Routes are logged and counted
// by their pattern (/public/v1/candidates/:id), never by their values; the URL is logged with the
// values of credentials (api_key, access_token, code, ...) and of `q` and `email` replaced
// (log-safety.ts, redactUrl), and the logger masks any e-mail address left in it.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { redactUrl } from '../shared/log-safety.ts';
import type { Metrics } from '../shared/metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `error` code of an error response, for the access line. */
    errorCode: string | undefined;
  }
}

const UNMATCHED = '(unmatched)';

/** pino's isLevelEnabled; a logger without it (none here) is taken to log everything. */
function levelEnabled(log: FastifyBaseLogger, level: string): boolean {
  const check = (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return check ? check.call(log, level) : true;
}

export function registerAccessLog(app: FastifyInstance, metrics: Metrics): void {
  app.decorateRequest('errorCode', undefined);

  // Callback hooks rather than async ones: they run on every request, and a promise each is a cost.
  app.addHook('onSend', (request, reply, payload, done) => {
    // Error bodies are small envelopes: reading their code here keeps every error path uniform.
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.length < 64 * 1024) {
      try {
        const code = (JSON.parse(payload) as { error?: unknown }).error;
        if (typeof code === 'string') request.errorCode = code;
      } catch {
        // not JSON: no code
      }
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const status = reply.statusCode;
    metrics.httpRequest({ method: request.method, route, status }, reply.elapsedTime / 1000);
    if (status === 401) metrics.authFailure(route);
    if (status === 429) metrics.rateLimited(route);
    // The line is built only when it will be written (servers under load log at warn).
    if (!levelEnabled(request.log, status >= 500 ? 'error' : 'info')) return done();

    const principal = request.principal as (typeof request.principal & { clientId?: string | null }) | null;
    const line = {
      method: request.method,
      route,
      url: redactUrl(request.url),
      status,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      companyId: principal?.companyId,
      keyId: principal?.apiKeyId ?? undefined,
      // An OAuth client, once bearer tokens authenticate (the principal then names it).
      clientId: principal?.clientId ?? undefined,
      error: request.errorCode,
    };
    if (status >= 500) request.log.error(line, 'request failed');
    else request.log.info(line, 'request');
    done();
  });
}
