// A local S3 for the tests: s3rver (npm, in-process, files in a temporary directory), on a free
// loopback port with its default credentials (S3RVER / S3RVER: requests are signed, and s3rver checks
// the access key id, not V4 signatures themselves).
// Two of s3rver's gaps are filled below, the way S3 behaves:
// - AbortMultipartUpload is not implemented: here it removes the pending upload and its parts (204),
//   so the backend's abort is exercised; pendingUploads() looks at what s3rver keeps on disk for
//   uploads started and neither completed nor aborted.
// - ListObjectsV2 past one page answers 500 on Node 24: s3rver seals its continuation tokens with
//   DES, which OpenSSL 3 no longer offers. Here the listing is answered from s3rver's own store with
//   a plain token (the last key of the page), so pagination is exercised as on S3.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3StoreSettings } from '../../src/config.ts';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The settings FILE_STORE=s3 would produce for this server. */
  settings(overrides?: Partial<S3StoreSettings>): S3StoreSettings;
  /** The S3_* environment naming this server. */
  env: Record<string, string>;
  /** Ids of multipart uploads started and neither completed nor aborted. */
  pendingUploads(): string[];
  /** Every PUT received (objects and multipart parts), with the length it announced. */
  puts: { path: string; contentLength: string | undefined; multipart: boolean }[];
  /** Calls to AbortMultipartUpload received. */
  aborts: string[];
  /** Answers one more AbortMultipartUpload 500 (S3 failing just then): the upload stays pending. */
  failNextAbort(): void;
  close(): Promise<void>;
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
}

type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

interface ListedObject {
  key: string;
  size: number;
  lastModifiedDate: Date;
  metadata: Record<string, string>;
}

interface S3rverInternals {
  middleware: Middleware[];
  httpServer: import('node:http').Server;
  store: { listObjects(bucket: string, options: { prefix: string; startAfter: string; maxKeys: number }): Promise<{ objects: ListedObject[]; isTruncated: boolean }> };
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export async function startLocalS3(bucket = 'recruiting-files'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'local-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const uploadsDir = join(directory, bucket, '._S3rver_uploads');
  const aborts: string[] = [];
  const puts: LocalS3['puts'] = [];
  let abortFailures = 0;
  const internals = server as unknown as S3rverInternals;
  const abort: Middleware = async (ctx, next) => {
    const uploadId = one(ctx.query.uploadId);
    if (ctx.method !== 'DELETE' || uploadId === undefined || !ctx.path.startsWith(`/${bucket}/`)) return next();
    aborts.push(uploadId);
    if (abortFailures > 0) {
      abortFailures -= 1;
      ctx.status = 500;
      ctx.body = { Error: { Code: 'InternalError', Message: 'We encountered an internal error. Please try again.' } };
      return;
    }
    const pending = join(uploadsDir, uploadId);
    if (!/^[A-Za-z0-9-]+$/.test(uploadId) || !existsSync(pending)) {
      ctx.status = 404;
      ctx.body = { Error: { Code: 'NoSuchUpload', Message: 'The specified upload does not exist.' } };
      return;
    }
    rmSync(pending, { recursive: true, force: true });
    ctx.status = 204;
  };
  const listV2: Middleware = async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path.replace(/\/$/, '') !== `/${bucket}` || one(ctx.query['list-type']) !== '2') return next();
    const prefix = one(ctx.query.prefix) ?? '';
    const token = one(ctx.query['continuation-token']);
    const maxKeys = Math.min(1000, Number(one(ctx.query['max-keys']) ?? 1000));
    const startAfter = token ? Buffer.from(token, 'base64url').toString('utf8') : (one(ctx.query['start-after']) ?? '');
    const { objects, isTruncated } = await internals.store.listObjects(bucket, { prefix, startAfter, maxKeys });
    ctx.body = {
      ListBucketResult: {
        '@': { xmlns: 'http://s3.amazonaws.com/doc/2006-03-01/' },
        Name: bucket,
        Prefix: prefix,
        KeyCount: objects.length,
        MaxKeys: maxKeys,
        IsTruncated: isTruncated,
        ...(token ? { ContinuationToken: token } : {}),
        ...(isTruncated ? { NextContinuationToken: Buffer.from(objects[objects.length - 1]!.key).toString('base64url') } : {}),
        Contents: objects.map((object) => ({
          Key: object.key,
          LastModified: object.lastModifiedDate.toISOString(),
          ETag: object.metadata.etag,
          Size: object.size,
          StorageClass: 'STANDARD',
        })),
      },
    };
  };
  const recordPuts: Middleware = async (ctx, next) => {
    if (ctx.method === 'PUT' && ctx.path.startsWith(`/${bucket}/`)) {
      puts.push({ path: ctx.path, contentLength: one(ctx.headers['content-length']), multipart: ctx.query.uploadId !== undefined });
    }
    return next();
  };
  // After s3rver's logger and its XML encoder (an object body is answered as XML), before its routes.
  internals.middleware.splice(2, 0, recordPuts, abort, listV2);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = (overrides: Partial<S3StoreSettings> = {}): S3StoreSettings => ({
    kind: 's3',
    bucket,
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    prefix: '',
    timeoutMs: 10_000,
    ...overrides,
  });
  return {
    endpoint,
    bucket,
    settings,
    env: { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
    pendingUploads: () => (existsSync(uploadsDir) ? readdirSync(uploadsDir) : []),
    puts,
    aborts,
    failNextAbort: () => {
      abortFailures += 1;
    },
    async close() {
      // A client left open (a failed test) keeps its keep-alive sockets: they do not hold the close up.
      const closed = server.close();
      internals.httpServer.closeAllConnections();
      await closed;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
