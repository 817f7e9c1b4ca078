// The file store's contract, run against every backend: what put, get, delete and list promise.
// The S3 backend runs it against a local S3 (s3rver, started here: nothing to set up).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryFileStore } from '../../src/adapters/file-store/directory.ts';
import type { FileStore } from '../../src/adapters/file-store/file-store.ts';
import { S3FileStore } from '../../src/adapters/file-store/s3.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { fileStoreFromConfig } from '../../src/deps.ts';
import { startLocalS3, type LocalS3 } from '../helpers/local-s3.ts';

function failingAfter(bytes: string | Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
      } else {
        this.destroy(new Error('the client went away'));
      }
    },
  });
}

async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const key of keys) all.push(key);
  return all.sort();
}

function fileStoreContract(name: string, open: () => Promise<FileStore>) {
  describe(`file store contract: ${name}`, () => {
    it('stores a stream and gives the same bytes back; a missing key is undefined', async () => {
      const store = await open();
      const body = 'x'.repeat(200_000) + 'end';
      const stored = await store.put('c1/f1', Readable.from([Buffer.from(body)]), { contentType: 'text/plain' });
      expect(stored).toEqual({ key: 'c1/f1', size: body.length });
      expect(await text((await store.get('c1/f1'))!)).toBe(body);
      expect(await store.get('c1/missing')).toBeUndefined();
      await store.close();
    });

    it('leaves nothing behind when the body fails half-way', async () => {
      const store = await open();
      await expect(store.put('c1/broken', failingAfter('half'), { contentType: 'text/plain' })).rejects.toThrow(/went away/);
      expect(await store.get('c1/broken')).toBeUndefined();
      expect(await collect(store.list('c1/broken'))).toEqual([]);
      await store.close();
    });

    it('lists keys under a prefix, and deletes (twice is no error)', async () => {
      const store = await open();
      for (const key of ['p/a/1', 'p/a/2', 'p/b/1']) await store.put(key, Readable.from([Buffer.from(key)]), { contentType: 'text/plain' });
      expect(await collect(store.list('p/a/'))).toEqual(['p/a/1', 'p/a/2']);
      await store.delete('p/a/1');
      await store.delete('p/a/1');
      expect(await collect(store.list('p/'))).toEqual(['p/a/2', 'p/b/1']);
      await store.close();
    });

    it('refuses a key that is not its own form (no path tricks)', async () => {
      const store = await open();
      for (const key of ['../x', '/abs', 'a//b', 'A', 'a/../b', '']) {
        await expect(store.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' })).rejects.toThrow(/Not a file store key/);
      }
      await store.close();
    });
  });
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

fileStoreContract('directory', async () => {
  const root = mkdtempSync(join(tmpdir(), 'file-store-'));
  roots.push(root);
  return new DirectoryFileStore(root);
});

describe('directory file store', () => {
  it('a read stream closes its file once: nothing is closed again when the garbage collector runs', () => {
    // In a process of its own with the collector at hand: a descriptor closed twice fails there
    // (EBADF), or worse closes another file that got the same number meanwhile.
    const root = mkdtempSync(join(tmpdir(), 'file-store-'));
    roots.push(root);
    const script = `
      import { DirectoryFileStore } from ${JSON.stringify(fileURLToPath(new URL('../../src/adapters/file-store/directory.ts', import.meta.url)))};
      import { Readable } from 'node:stream';
      import { text } from 'node:stream/consumers';
      const store = new DirectoryFileStore(${JSON.stringify(root)});
      await store.put('a/b', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
      for (let i = 0; i < 5; i++) await text(await store.get('a/b'));
      const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
      await pause(); globalThis.gc(); await pause(); globalThis.gc(); await pause();
      console.log('read five times');
    `;
    const result = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.stderr).not.toContain('EBADF');
    expect(result.stdout).toContain('read five times');
    expect(result.status).toBe(0);
  });

  it('keeps objects 0600 in 0700 directories, and no temporary file after a put', async () => {
    const root = mkdtempSync(join(tmpdir(), 'file-store-'));
    roots.push(root);
    const previous = process.umask(0);
    try {
      const store = new DirectoryFileStore(root);
      await store.put('c9/f9', Readable.from([Buffer.from('secret cv')]), { contentType: 'text/plain' });
      expect(statSync(join(root, 'objects/c9/f9')).mode & 0o777).toBe(0o600);
      expect(statSync(join(root, 'objects/c9')).mode & 0o777).toBe(0o700);
      expect(readdirSync(join(root, 'incoming'))).toEqual([]);
    } finally {
      process.umask(previous);
    }
  });
});

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.close();
});

let prefixes = 0;
// Each store under a prefix of its own (S3_PREFIX), as installations sharing a bucket would be.
fileStoreContract('s3', async () => new S3FileStore(s3.settings({ prefix: `run-${process.pid}-${++prefixes}/` })));

describe('s3 file store', () => {
  it('a body failing after 6 MB sends nothing: no object, no upload started, no spool file left, the body\'s error', async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'spool-'));
    roots.push(spoolDir);
    const store = new S3FileStore(s3.settings({ prefix: 'broken/' }), { spoolDir });
    const puts = s3.puts.length;
    await expect(store.put('big/broken', failingAfter(Buffer.alloc(6 * 1024 * 1024, 1)), { contentType: 'application/pdf' })).rejects.toThrow(
      'the client went away',
    );
    expect(s3.puts.length).toBe(puts);
    expect(s3.pendingUploads()).toEqual([]);
    expect(readdirSync(spoolDir)).toEqual([]);
    expect(await store.get('big/broken')).toBeUndefined();
    await store.close();
  });

  it('sends a body larger than a part as one PutObject of known length (no multipart), spooled privately and removed', async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'spool-'));
    roots.push(spoolDir);
    const store = new S3FileStore(s3.settings({ prefix: 'whole/' }), { spoolDir });
    const part = Buffer.alloc(3 * 1024 * 1024, 7);
    let spooled: { name: string; mode: number }[] = [];
    // Looks at the spool directory while the body is still arriving.
    const body = Readable.from(
      (async function* () {
        yield part;
        // The write stream opens its file asynchronously: wait for it (a second at most).
        for (let wait = 0; wait < 100 && readdirSync(spoolDir).length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
        spooled = readdirSync(spoolDir).map((name) => ({ name, mode: statSync(join(spoolDir, name)).mode & 0o777 }));
        yield part;
        yield Buffer.from('end');
      })(),
    );
    const puts = s3.puts.length;
    const stored = await store.put('big/whole', body, { contentType: 'application/pdf' });
    expect(stored.size).toBe(2 * part.length + 3);
    expect(spooled).toEqual([{ name: expect.stringMatching(/^recruiting-upload-[0-9a-f-]{36}$/), mode: 0o600 }]);
    expect(s3.puts.slice(puts)).toEqual([{ path: `/${s3.bucket}/whole/big/whole`, contentLength: String(stored.size), multipart: false }]);
    expect(readdirSync(spoolDir)).toEqual([]);
    const back = Buffer.concat(await (await store.get('big/whole'))!.toArray());
    expect(back.length).toBe(stored.size);
    expect(back.subarray(-3).toString()).toBe('end');
    await store.delete('big/whole');
    await store.close();
  });

  it('S3 refusing the PutObject rejects the put and removes the spool file', async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'spool-'));
    roots.push(spoolDir);
    const store = new S3FileStore(s3.settings({ bucket: 'no-such-bucket' }), { spoolDir });
    await expect(store.put('c1/f1', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' })).rejects.toMatchObject({ name: 'NoSuchBucket' });
    expect(readdirSync(spoolDir)).toEqual([]);
    await store.close();
  });

  it('an empty body is an empty object', async () => {
    const store = new S3FileStore(s3.settings({ prefix: 'empty/' }));
    try {
      expect(await store.put('c1/nothing', Readable.from([]), { contentType: 'text/plain' })).toEqual({ key: 'c1/nothing', size: 0 });
      expect(await text((await store.get('c1/nothing'))!)).toBe('');
    } finally {
      await store.close();
    }
  });

  it('keys live under S3_PREFIX and list answers them without it', async () => {
    const mine = new S3FileStore(s3.settings({ prefix: 'install-a/' }));
    const other = new S3FileStore(s3.settings({ prefix: 'install-b/' }));
    await mine.put('c1/f1', Readable.from([Buffer.from('a')]), { contentType: 'text/plain' });
    await other.put('c1/f1', Readable.from([Buffer.from('b')]), { contentType: 'text/plain' });
    expect(await collect(mine.list(''))).toEqual(['c1/f1']);
    expect(await text((await other.get('c1/f1'))!)).toBe('b');
    const whole = new S3FileStore(s3.settings());
    expect(await collect(whole.list('install-a/'))).toEqual(['install-a/c1/f1']);
    for (const store of [mine, other, whole]) await store.close();
  });

  it('lists past a page of 1000 keys (ListObjectsV2 continuation)', async () => {
    const store = new S3FileStore(s3.settings({ prefix: 'many/' }));
    try {
      const keys = Array.from({ length: 1005 }, (_, index) => `k/${String(index).padStart(4, '0')}`);
      for (let start = 0; start < keys.length; start += 5) {
        await Promise.all(keys.slice(start, start + 5).map((key) => store.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' })));
      }
      expect(await collect(store.list('k/'))).toEqual(keys);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('a bucket that does not exist is an error, not a missing object', async () => {
    const store = new S3FileStore(s3.settings({ bucket: 'no-such-bucket' }));
    await expect(store.get('c1/f1')).rejects.toThrow();
    await store.close();
  });

  it('credentials it does not know are refused, and the secret is not in the error', async () => {
    // s3rver checks the access key id (it does not verify V4 signatures themselves).
    const store = new S3FileStore(s3.settings({ credentials: { accessKeyId: 'UNKNOWN', secretAccessKey: 'not-the-secret-1234' } }));
    const error = await store.put('c1/f1', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'InvalidAccessKeyId' });
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(error)).not.toContain('not-the-secret-1234');
    await store.close();
  });

  it('a server that accepts and never answers fails the call within the timeout', async () => {
    const sockets: import('node:net').Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const store = new S3FileStore(s3.settings({ endpoint: `http://127.0.0.1:${port}`, timeoutMs: 300 }));
    try {
      const started = Date.now();
      await expect(store.get('c1/f1')).rejects.toThrow();
      await expect(store.put('c1/f1', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' })).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(10_000); // three attempts each, 300 ms apiece, and the SDK's back-off
    } finally {
      await store.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 20_000);

  it('FILE_STORE=s3 builds this backend, and it works against the server the settings name', async () => {
    const store = await fileStoreFromConfig(loadConfig({ FILE_STORE: 's3', ...s3.env, S3_PREFIX: 'from-config' }));
    expect(store).toBeInstanceOf(S3FileStore);
    await store.put('c1/f1', Readable.from([Buffer.from('configured')]), { contentType: 'text/plain' });
    const whole = new S3FileStore(s3.settings());
    expect(await text((await whole.get('from-config/c1/f1'))!)).toBe('configured');
    await store.close();
    await whole.close();
  });
});

describe('file store settings', () => {
  const settingsOf = (env: Record<string, string>) => loadConfig(env).fileStore;
  const refused = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('default: a directory under DATA_DIR, or FILES_DIR', () => {
    expect(settingsOf({ DATA_DIR: '/srv/data' })).toEqual({ kind: 'directory', dir: '/srv/data/files' });
    expect(settingsOf({ FILES_DIR: '/mnt/files' })).toEqual({ kind: 'directory', dir: '/mnt/files' });
  });

  it('s3 with its defaults, and with an endpoint (path style on by default, off on request)', () => {
    expect(settingsOf({ FILE_STORE: 's3', S3_BUCKET: 'acme-files' })).toEqual({
      kind: 's3',
      bucket: 'acme-files',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      prefix: '',
      timeoutMs: 30_000,
    });
    expect(
      settingsOf({
        FILE_STORE: 's3',
        S3_BUCKET: 'acme-files',
        S3_ENDPOINT: 'https://abc.r2.cloudflarestorage.com/',
        S3_REGION: 'auto',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PREFIX: 'prod/recruiting',
        S3_TIMEOUT_MS: '5000',
      }),
    ).toEqual({
      kind: 's3',
      bucket: 'acme-files',
      endpoint: 'https://abc.r2.cloudflarestorage.com',
      region: 'auto',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'prod/recruiting/',
      timeoutMs: 5000,
    });
    expect(settingsOf({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'https://storage.googleapis.com', S3_FORCE_PATH_STYLE: 'false' })).toMatchObject({
      forcePathStyle: false,
    });
  });

  it('refuses what cannot work, saying which setting, never echoing a secret', () => {
    expect(refused({ FILE_STORE: 'ftp' })).toContain('FILE_STORE must be one of directory, s3');
    expect(refused({ FILE_STORE: 's3' })).toContain('S3_BUCKET is required');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'Bad_Bucket!' })).toContain('S3_BUCKET must be a bucket name');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'minio 9000' })).toContain('S3_ENDPOINT must be a URL');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'ftp://minio' })).toContain('S3_ENDPOINT must use');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_REGION: 'US East' })).toContain('S3_REGION');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_PREFIX: '/abs' })).toContain('S3_PREFIX');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_PREFIX: 'a/../b' })).toContain('S3_PREFIX');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'yes' })).toContain('S3_FORCE_PATH_STYLE must be true or false');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_TIMEOUT_MS: '0' })).toContain('S3_TIMEOUT_MS');
    const halfKey = refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', S3_SECRET_ACCESS_KEY: 'very-secret-value' });
    expect(halfKey).toContain('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    expect(halfKey).not.toContain('very-secret-value');
    expect(refused({ FILE_STORE: 's3', S3_BUCKET: 'b-1', FILES_DIR: '/mnt/files' })).toContain('FILES_DIR is for FILE_STORE=directory');
    // S3 settings with FILE_STORE unset: a forgotten FILE_STORE=s3 would keep files on each server's disk.
    expect(refused({ S3_BUCKET: 'b-1' })).toContain('S3_BUCKET is set but FILE_STORE is not');
    expect(settingsOf({ FILE_STORE: 'directory', S3_BUCKET: 'b-1', DATA_DIR: '/d' })).toEqual({ kind: 'directory', dir: '/d/files' });
  });
});
