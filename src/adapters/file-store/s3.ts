// The deployment's file store: S3-compatible object storage (AWS S3, MinIO, R2, GCS interop), so
// every server and worker sees the same files. A put first spools the body to a private temporary
// file (0600, removed afterwards whatever happens), then sends it as one PutObject of known length
// streamed from that file: no part is ever held in memory, so ten 10 MB uploads at once keep the
// server's memory flat (figures in docs/decisions.md and `npm run bench -- uploads`). S3 shows the
// object only once the PutObject completes: a body that fails while spooling sends nothing. Every
// call is bounded in time (connecting, waiting for the answer, silence on the socket) and retried on
// transient errors. The credentials are handed to the SDK and never appear in a message.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3StoreSettings } from '../../config.ts';
import { assertFileKey, type FileStore, type StoredObject } from './file-store.ts';

/** Attempts at one PutObject (the SDK retries other calls itself, but never a streamed body). */
const PUT_ATTEMPTS = 3;

export interface S3FileStoreOptions {
  /** Where bodies are spooled before they are sent; the OS temporary directory (TMPDIR) by default. */
  spoolDir?: string;
}

export class S3FileStore implements FileStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly spoolDir: string;

  constructor(settings: Omit<S3StoreSettings, 'kind'>, options: S3FileStoreOptions = {}) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
    this.spoolDir = options.spoolDir ?? tmpdir();
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // The SDK's default checksums (CRC32 on every upload) are refused by some S3-compatible
      // services (GCS interop, older MinIO and R2): elsewhere than AWS, only where an API demands one.
      ...(settings.endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
      requestHandler: {
        connectionTimeout: settings.timeoutMs,
        requestTimeout: settings.timeoutMs,
        throwOnRequestTimeout: true,
        socketTimeout: settings.timeoutMs,
      },
      maxAttempts: 3,
      // The SDK's only words are a console warning when a streamed PutObject fails ("non-retryable
      // streaming request"): put() retries those itself and reports the error.
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
  }

  async put(key: string, body: Readable, meta: { contentType: string }): Promise<StoredObject> {
    assertFileKey(key);
    // 'wx' with a random name: never an existing file or a link planted in a shared temporary directory.
    const spool = join(this.spoolDir, `recruiting-upload-${randomUUID()}`);
    try {
      let size = 0;
      body.on('data', (chunk: Buffer) => (size += chunk.length));
      // A body failing here (a size limit, the client going away) rejects with its own error, and
      // nothing has been sent to S3.
      await pipeline(body, createWriteStream(spool, { flags: 'wx', mode: 0o600 }));
      for (let attempt = 1; ; attempt++) {
        try {
          // A fresh stream per attempt: a streamed body cannot be sent twice.
          await this.client.send(
            new PutObjectCommand({
              Bucket: this.bucket,
              Key: this.prefix + key,
              Body: createReadStream(spool),
              ContentLength: size,
              ContentType: meta.contentType,
            }),
          );
          return { key, size };
        } catch (error) {
          if (attempt >= PUT_ATTEMPTS || !isTransient(error)) throw error;
          await sleep(100 * 2 ** attempt);
        }
      }
    } finally {
      if (!body.destroyed) body.destroy();
      await rm(spool, { force: true });
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    assertFileKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
      return answer.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    // S3 answers 204 whether or not the object was there: deleting twice is no error.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
  }

  async *list(prefix: string): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key?.startsWith(this.prefix)) yield object.Key.slice(this.prefix.length);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** Worth another attempt: no answer at all (a timeout, a reset), throttling, or S3's own failure. */
function isTransient(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === undefined || status === 429 || status >= 500;
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404) &&
    error.name !== 'NoSuchBucket'
  );
}
