// A small LibreTranslate stand-in on 127.0.0.1: POST /translate answers "[target] text" for each
// text, records every request, and can be told to fail.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TranslateRequest {
  q: string | string[];
  source: string;
  target: string;
  format?: string;
  api_key?: string;
}

export interface FakeLibreTranslate {
  url: string;
  requests: TranslateRequest[];
  /** Targets answered with 400 (as LibreTranslate does for a language it does not know). */
  unsupportedTargets: Set<string>;
  /** When set, every request answers this status. */
  failWith: number | undefined;
  close(): Promise<void>;
}

export async function startFakeLibreTranslate(): Promise<FakeLibreTranslate> {
  const fake: Omit<FakeLibreTranslate, 'url' | 'close'> = { requests: [], unsupportedTargets: new Set(), failWith: undefined };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'POST' || request.url !== '/translate') return send(404, { error: 'Not found' });
      const body = JSON.parse(raw) as TranslateRequest;
      fake.requests.push(body);
      if (fake.failWith) return send(fake.failWith, { error: 'Failing on purpose' });
      if (fake.unsupportedTargets.has(body.target)) return send(400, { error: `${body.target} is not supported` });
      const translate = (text: string) => `[${body.target}] ${text}`;
      return send(200, { translatedText: Array.isArray(body.q) ? body.q.map(translate) : translate(body.q) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
