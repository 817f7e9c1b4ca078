// GET /metrics: the process's figures in Prometheus text. With METRICS_TOKEN set, scrapers send
// `Authorization: Bearer <token>`; with METRICS_PORT set, the figures are served on that port by
// a listener of their own (startMetricsListener) and not on the API port at all.
import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../shared/metrics.ts';
import { errorBody } from './error-envelope.ts';

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token && !tokenMatches(request.headers.authorization, token)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return reply.status(401).send(errorBody(401, 'UNAUTHORIZED', 'Metrics need Authorization: Bearer <METRICS_TOKEN>', request.url));
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** A small HTTP listener serving only /metrics (the worker's, or the server's with METRICS_PORT). */
export async function startMetricsListener(
  metrics: Metrics,
  options: { port: number; host: string; token: string | undefined },
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    if (options.token && !tokenMatches(req.headers.authorization, options.token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="metrics"' }).end('Unauthorized\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n'),
    );
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
