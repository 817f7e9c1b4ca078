// A real HTTP receiver on 127.0.0.1 (port 0): what a subscriber's endpoint would be. Records every
// request; the test decides each answer.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
}

export type Handler = (request: ReceivedRequest, index: number) => Answer;

export interface Receiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted, with or without a complete HTTP request. */
  connections: number;
  handler: Handler;
  /** Resolves once `count` requests arrived; rejects after timeoutMs. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(handler: Handler = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const receiver = { handler } as Receiver;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      const answer = receiver.handler(request, requests.length - 1);
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? { 'content-type': 'text/plain' });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  receiver.connections = 0;
  server.on('connection', () => receiver.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    async waitForRequests(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** Polls until the check passes; fails after timeoutMs. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
