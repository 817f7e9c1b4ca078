// A file given as a URL is fetched through the webhooks' address guard: a host that resolves to a
// private address is refused, and so is one that resolved to a public address when checked and to
// a private one when connected to (DNS rebinding): the address connected to is the one checked.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGuardedDownloader } from '../../src/modules/webhooks/transport.ts';

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_request, response) => response.end('secret of the private network'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

it('refuses a host resolving to a private or loopback address, before connecting', async () => {
  const downloader = createGuardedDownloader({ allowLocal: false, resolve: async () => [{ address: '10.1.2.3', family: 4 }] });
  try {
    expect(await downloader.download('https://files.example.com/cv.pdf')).toEqual({ kind: 'refused', problem: expect.stringMatching(/public internet address/) });
    expect(await downloader.download('http://files.example.com/cv.pdf')).toEqual({ kind: 'refused', problem: 'must use https' });
    expect(await downloader.download('https://user:pw@files.example.com/cv.pdf')).toEqual({ kind: 'refused', problem: expect.stringMatching(/user name/) });
  } finally {
    await downloader.close();
  }
});

it('refuses a host that rebinds to a private address between the check and the connection', async () => {
  let lookups = 0;
  // Public when the URL is checked, loopback when the socket connects: refused at the connection.
  const downloader = createGuardedDownloader({
    allowLocal: false,
    resolve: async () => (lookups++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
  });
  try {
    const result = await downloader.download(`https://rebinding.example.com:${port}/cv.pdf`);
    expect(result).toEqual({ kind: 'failure', failure: 'blocked_address' });
    expect(lookups).toBe(2);
  } finally {
    await downloader.close();
  }
});
