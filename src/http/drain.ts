// Shutting down, as clients see it. On SIGTERM the server stops accepting connections and lets the
// requests in flight finish, for the drain time (SHUTDOWN_DRAIN_MS, src/server.ts). A request that
// still arrives meanwhile, on a connection opened before, is answered 503 SERVICE_UNAVAILABLE in the
// contract's envelope with Retry-After (Fastify's own answer had a body of its own and no
// Retry-After), and its connection is closed: the client's retry goes to another server, or to this
// one restarted. Requests still running when the drain time is over are answered the same way
// (`cutInFlight`) rather than dropped unanswered with the process.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-envelope.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * After the drain time: answers 503 every request still running and returns how many there
     * were (one whose answer had begun already cannot be answered; its connection is closed).
     */
    cutInFlight(): number;
  }
}

const RETRY_AFTER_SECONDS = '2';

function answerShuttingDown(request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .status(503)
    .header('Retry-After', RETRY_AFTER_SECONDS)
    .header('Connection', 'close')
    .send(errorBody(503, 'SERVICE_UNAVAILABLE', 'The server is shutting down; try again', request.url));
}

function answerShuttingDownRaw(reply: FastifyReply): void {
  const body = JSON.stringify(errorBody(503, 'SERVICE_UNAVAILABLE', 'The server is shutting down; try again', reply.request.url));
  reply.raw.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': RETRY_AFTER_SECONDS,
    'x-request-id': reply.request.id,
    connection: 'close',
  });
  reply.raw.end(body);
}

export function registerDrain(app: FastifyInstance): void {
  // Requests being answered, until their response is done or their connection gone.
  const inFlight = new Set<FastifyReply>();
  let draining = false;

  app.addHook('onRequest', (request, reply, done) => {
    if (draining) return answerShuttingDown(request, reply); // answered: the rest of the chain does not run
    inFlight.add(reply);
    reply.raw.once('close', () => {
      inFlight.delete(reply);
      // A keep-alive connection left idle would hold the close until its keep-alive timeout.
      if (draining) app.server.closeIdleConnections();
    });
    done();
  });

  // Fastify runs preClose hooks once it stops routing, before it closes the listening socket
  // (which closes the connections idle then). The requests in flight close their connection once
  // answered.
  app.addHook('preClose', (done) => {
    draining = true;
    for (const reply of inFlight) if (!reply.raw.headersSent) reply.header('Connection', 'close');
    done();
  });

  app.decorate('cutInFlight', () => {
    let cut = 0;
    for (const reply of inFlight) {
      if (reply.raw.writableEnded) continue; // answered, its connection not closed yet
      cut += 1;
      if (reply.raw.headersSent) reply.raw.destroy();
      else if (reply.sent) answerShuttingDownRaw(reply); // hijacked: Fastify no longer answers it
      else answerShuttingDown(reply.request, reply);
    }
    inFlight.clear();
    return cut;
  });
}
