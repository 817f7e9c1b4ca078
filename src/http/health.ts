import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';
import { errorBody } from './error-envelope.ts';

const READY_TIMEOUT_MS = 2000;

export function registerHealth(app: FastifyInstance, database: Database): void {
  // Liveness: the process answers. Never touches the database, so a slow database does not get
  // a healthy process restarted.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Readiness: 200 only while the database answers.
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        database.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database ping timed out')), READY_TIMEOUT_MS);
        }),
      ]);
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send(errorBody(503, 'SERVICE_UNAVAILABLE', 'Database is not answering', request.url));
    } finally {
      clearTimeout(timer);
    }
  });
}
