// Whether a Redis server answers at the URL (a PING within a second), so the tests that need one
// can skip with a clear message on a machine without it. .ci/run makes sure Redis runs in CI.
// startOwnRedis: a server of the test's own, for tests that kill or hang it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function redisAnswers(url = TEST_REDIS_URL): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

export interface OwnRedis {
  url: string;
  /** SIGSTOP: the server keeps its connections but answers nothing (a hung Redis). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  /** SIGKILL, waiting for the process to be gone (its data goes with it: nothing is saved). */
  kill(): Promise<void>;
  /** A new, empty server on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A redis-server of the test's own on a free port, to kill or hang without touching the shared one.
 * Nothing is written to disk.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
    probe.on('error', reject);
  });
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    // A test that dies before its afterAll must not leave a server behind.
    const orphaned = () => started.kill('SIGKILL');
    process.once('exit', orphaned);
    started.once('exit', () => process.off('exit', orphaned));
    child = started;
    for (let i = 0; i < 100; i++) {
      if (await redisAnswers(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    kill,
    restart: async () => {
      await kill();
      await start();
    },
    stop: kill,
  };
}
