// The server as a newcomer runs it: `node src/server.ts` on an empty embedded data directory.
// First start prints a demo key once and the printed curl line answers; SIGTERM shuts down cleanly
// and releases the directory; a second server on a directory in use fails at once. And as a
// service manager runs it: `npm start`, stopped by a SIGTERM to the npm process alone. And how it
// drains on SIGTERM: requests arriving meanwhile and requests still running after the drain time
// (a body that never finishes arriving; on PostgreSQL, a read waiting on a table lock) are
// answered 503 in the envelope, and the exit is 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/child-env.ts';
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../helpers/test-app.ts';
import { appendChildLogLines } from '../helpers/suite-log.ts';
import { freePort } from '../helpers/free-port.ts';

const SERVER = fileURLToPath(new URL('../../src/server.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface ServerProcess {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  exited: Promise<number | null>;
  baseUrl: string;
}

const started: ServerProcess[] = [];

/** `node src/server.ts`, or the package's `start` script run by npm (`npm start`). */
async function startServer(dataDir: string, how: 'node' | 'npm start' = 'node', settings: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const env = childEnv({ DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: '', LOG_LEVEL: 'warn', ...settings });
  // --ignore-scripts leaves out `prestart` (the dashboard build, which other test files run)
  // and nothing else: npm still runs `start` through its shell, as `npm start` does.
  const child =
    how === 'node'
      ? spawn(process.execPath, [SERVER], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('npm', ['start', '--ignore-scripts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      appendChildLogLines(output.stdout + output.stderr);
      resolve(code);
    }),
  );
  const server = { child, output, exited, baseUrl: `http://127.0.0.1:${port}` };
  started.push(server);
  return server;
}

/** Polls /readyz until it answers 200; fails early if the process exits instead. */
async function waitUntilReady(server: ServerProcess): Promise<void> {
  // A first start migrates a new embedded database: on a busy shared machine that takes a while.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited with ${server.child.exitCode}: ${server.output.stderr}`);
    }
    const status = await fetch(`${server.baseUrl}/readyz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server not ready in time: ${server.output.stderr}`);
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A connection of its own that sends `head` at once (more with `send`), and the answer read
 * until the server closes the connection (undefined if it closed without one).
 */
async function rawExchange(baseUrl: string, head: string) {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(head);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const answer = new Promise<RawAnswer | undefined>((resolve) => {
    socket.on('error', () => {});
    socket.on('close', () => {
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) return resolve(undefined);
      const [statusLine, ...lines] = received.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: received.slice(split + 4) });
    });
  });
  return { answer, send: (more: string) => socket.write(more) };
}

async function waitForOutput(server: ServerProcess, text: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!server.output.stdout.includes(text)) {
    if (Date.now() > deadline) throw new Error(`no "${text}" in the output: ${server.output.stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('server process on the embedded database', () => {
  let dataDir: string;
  const lockFile = () => join(dataDir, 'recruiting.lock');

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'recruiting-server-'));
  });

  afterAll(() => {
    for (const server of started) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints a demo key once on first start, whose curl line answers 200, and shuts down cleanly on SIGTERM', async () => {
    const server = await startServer(dataDir);
    await waitUntilReady(server);

    const key = /API key: (rk_live_[0-9A-Za-z]+)/.exec(server.output.stdout)?.[1];
    expect(key, server.output.stdout).toBeDefined();
    const curl = new RegExp(`curl -H 'X-API-Key: ${key}' (\\S+)`).exec(server.output.stdout);
    expect(curl?.[1]).toMatch(/\/public\/v1\/enums$/);
    const res = await fetch(curl![1], { headers: { 'X-API-Key': key! } });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty('PositionType');
    expect(existsSync(lockFile())).toBe(true);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
  }, 180_000);

  it('prints no key on a later start, and a second server on the same directory fails at once naming the first', async () => {
    const server = await startServer(dataDir);
    await waitUntilReady(server);
    expect(server.output.stdout).not.toContain('API key');

    const second = await startServer(dataDir);
    expect(await second.exited).toBe(1);
    expect(second.output.stderr).toContain(`in use by process ${server.child.pid}`);
    expect(second.output.stdout).toBe('');

    // The refused start leaves the running server and its lock alone.
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    expect(existsSync(lockFile())).toBe(true);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(existsSync(lockFile())).toBe(false);
  }, 180_000);

  it('SIGTERM: a request arriving while it drains and one still running after the drain time are answered 503 in the envelope with Retry-After; exit 0, the cut logged', async () => {
    const server = await startServer(dataDir, 'node', { SHUTDOWN_DRAIN_MS: '3000', LOG_LEVEL: 'info' });
    await waitUntilReady(server);
    const form = (uid: string, length: number) =>
      `POST /sign-in/${uid}/dev HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\nemail=`;
    // Still running when the drain time is over: a form whose body never finishes arriving.
    const running = await rawExchange(server.baseUrl, form('some-uid', 100));
    // In flight at SIGTERM and done within the drain time: its body ends after SIGTERM.
    const finishing = await rawExchange(server.baseUrl, form('other-uid', 19));
    // Arriving during the drain, on a connection opened before: the end of its headers comes after SIGTERM.
    const arriving = await rawExchange(server.baseUrl, 'GET /public/v1/enums HTTP/1.1\r\nHost: localhost\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the requests reach the server
    server.child.kill('SIGTERM');
    await waitForOutput(server, 'shutting down');
    finishing.send('a@example.com');
    arriving.send('\r\n');

    // Answered as usual, and its keep-alive connection closed after it (left open, it held the
    // close until the keep-alive timeout).
    const finished = await finishing.answer;
    expect(finished?.status).toBe(400); // no such sign-in: its own answer, not the drain's
    expect(finished!.headers.connection).toBe('close');

    for (const [exchange, path] of [
      [arriving, '/public/v1/enums'],
      [running, '/sign-in/some-uid/dev'],
    ] as const) {
      const answer = await exchange.answer;
      expect(answer, path).toBeDefined();
      expect(answer!.status).toBe(503);
      expect(answer!.headers['retry-after']).toMatch(/^\d+$/);
      expect(answer!.headers['x-request-id']).toBeTruthy();
      expect(JSON.parse(answer!.body)).toMatchObject({ status: 503, error: 'SERVICE_UNAVAILABLE', path });
    }
    expect(await server.exited).toBe(0);
    const cutLine = server.output.stdout.split('\n').find((line) => line.includes('drain time over'));
    expect(JSON.parse(cutLine!)).toMatchObject({ cut: 1, drainMs: 3000 });
    expect(existsSync(lockFile())).toBe(false);
  }, 180_000);

  it('started by `npm start`, stops cleanly on a SIGTERM sent to the npm process alone', async () => {
    const npmDataDir = mkdtempSync(join(tmpdir(), 'recruiting-npm-start-'));
    const npmLock = join(npmDataDir, 'recruiting.lock');
    let serverPid: number | undefined;
    try {
      const server = await startServer(npmDataDir, 'npm start');
      await waitUntilReady(server);
      serverPid = Number(readFileSync(npmLock, 'utf8').trim());

      // Not the process group (Ctrl-C signals the whole group): only npm hears it, as from
      // `kill <pid>` or a service manager stopping the process it started.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      // The server itself shut down: its database closed (the lock released) and its port too.
      expect(existsSync(npmLock)).toBe(false);
      await expect(fetch(`${server.baseUrl}/readyz`)).rejects.toThrow();
    } finally {
      // A server left running by npm would keep its port and directory: stop it.
      if (serverPid && existsSync(npmLock)) {
        try {
          process.kill(serverPid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      rmSync(npmDataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe.skipIf(!process.env.DATABASE_URL)('server process on PostgreSQL', () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    t = await buildTestApp();
    dataDir = mkdtempSync(join(tmpdir(), 'recruiting-server-pg-'));
  });
  afterAll(async () => {
    for (const server of started) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('SIGTERM with a request blocked on a table lock past the drain time: answered 503 in the envelope, exit 0, the cut logged', async () => {
    const tenant = await t.tenant();
    const server = await startServer(dataDir, 'node', {
      DATABASE_URL: t.databaseUrl!,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SHUTDOWN_DRAIN_MS: '1000',
      LOG_LEVEL: 'info',
    });
    await waitUntilReady(server);
    // This file's own database: the lock holds every read of the listings until it is let go.
    const locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE job_listings IN ACCESS EXCLUSIVE MODE');
      const blocked = await rawExchange(
        server.baseUrl,
        `GET /public/v1/job-listings HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${tenant.apiKey}\r\n\r\n`,
      );
      // Waiting on the lock before the server is told to stop.
      const deadline = Date.now() + 30_000;
      for (;;) {
        await locker.query('SELECT pg_stat_clear_snapshot()'); // else the transaction sees one snapshot
        const { rows } = await locker.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        if (rows[0].n > 0) break;
        if (Date.now() > deadline) throw new Error('the request never waited on the lock');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      server.child.kill('SIGTERM');
      const answer = await blocked.answer;
      expect(answer).toBeDefined();
      expect(answer!.status).toBe(503);
      expect(answer!.headers['retry-after']).toMatch(/^\d+$/);
      expect(JSON.parse(answer!.body)).toMatchObject({ status: 503, error: 'SERVICE_UNAVAILABLE', path: '/public/v1/job-listings' });
      expect(await server.exited).toBe(0);
      const cutLine = server.output.stdout.split('\n').find((line) => line.includes('drain time over'));
      expect(JSON.parse(cutLine!)).toMatchObject({ cut: 1 });
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end();
    }
  }, 120_000);
});
