// Over a real listening socket (issue 9 items 9 and 14): what Node's HTTP parser refuses is answered
// in the envelope with X-Request-Id, slow or unfinished requests are timed out, and a response
// sent before the body was read closes the connection.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp({ REQUEST_TIMEOUT_MS: '1000', MAX_REQUESTS_PER_SOCKET: '3' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.close());

interface Exchange {
  /** Everything the server sent until it closed the connection. */
  text: string;
  closed: boolean;
}

/** Sends raw bytes (optionally more later) and collects the answer until the server closes. */
function exchange(chunks: string[], options: { keepOpenMs?: number } = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    const guard = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, options.keepOpenMs ?? 10_000);
    socket.on('data', (data) => (text += data.toString('latin1')));
    socket.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' && (error as NodeJS.ErrnoException).code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(guard);
      resolve({ text, closed: true });
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

function parse(text: string): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) };
}

function expectEnvelope(text: string, status: number, error: string, path = '/public/v1/enums') {
  const res = parse(text);
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.body).toMatchObject({ status, error, path });
  expect(typeof res.body.message).toBe('string');
  return res;
}

describe('errors from the HTTP parser are the envelope', () => {
  it('duplicate Content-Length: 400', async () => {
    const { text, closed } = await exchange([
      'POST /public/v1/enums HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    ]);
    expectEnvelope(text, 400, 'BAD_REQUEST');
    expect(closed).toBe(true);
  });

  it('Content-Length with Transfer-Encoding (request smuggling): 400', async () => {
    const { text, closed } = await exchange([
      'POST /public/v1/enums HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /x HTTP/1.1\r\n\r\n',
    ]);
    expectEnvelope(text, 400, 'BAD_REQUEST');
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1); // the smuggled request is never answered
    expect(closed).toBe(true);
  });

  it('oversized headers: 431', async () => {
    const { text } = await exchange([`GET /public/v1/enums HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
    expectEnvelope(text, 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
  });

  it('garbage instead of a request line: 400', async () => {
    const { text } = await exchange(['HELLO THERE\r\n\r\n']);
    expectEnvelope(text, 400, 'BAD_REQUEST', '/');
  });

  it('an Expect other than 100-continue: 417', async () => {
    const { text } = await exchange(['GET /public/v1/enums HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n']);
    expectEnvelope(text, 417, 'EXPECTATION_FAILED');
  });

  it('headers never finished: 408, then the connection is closed', async () => {
    const { text, closed } = await exchange(['GET /public/v1/enums HTTP/1.1\r\nHost: x\r\n']);
    // Node gives no request line with a timeout: the path is unknown.
    expectEnvelope(text, 408, 'REQUEST_TIMEOUT', '/');
    expect(closed).toBe(true);
  });
});

describe('socket timeouts and limits', () => {
  it('a body never finished: 408, then the connection is closed', async () => {
    const { headers } = await t.tenant();
    const { text, closed } = await exchange([
      `POST /public/v1/job-listings HTTP/1.1\r\nHost: x\r\nX-API-Key: ${headers['x-api-key']}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"position":`,
    ]);
    expectEnvelope(text, 408, 'REQUEST_TIMEOUT', '/');
    expect(closed).toBe(true);
  });

  it('an early 401 with the body still unread closes the connection', async () => {
    const { text, closed } = await exchange(
      ['POST /public/v1/job-listings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":'],
      { keepOpenMs: 5000 },
    );
    const res = expectEnvelope(text, 401, 'UNAUTHORIZED', '/public/v1/job-listings');
    expect(res.headers.connection).toBe('close');
    expect(closed).toBe(true);
  });

  it('closes a keep-alive connection after MAX_REQUESTS_PER_SOCKET requests', async () => {
    const request = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const { text } = await exchange([request, request, request, request], { keepOpenMs: 3000 });
    // The third answer tells the client to close; a request pipelined past the cap is refused (503).
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((answer) => Number(answer.slice(9, 12)))).toEqual([200, 200, 200, 503]);
    expect(answers[1]).toMatch(/Keep-Alive: timeout=72, max=3/);
    expect(answers[2]).toMatch(/Connection: close/);
  });
});
