// The deployment's file store: S3-compatible object storage (AWS S3, MinIO, R2, GCS interop), so
// every server and worker sees the same files. A put streams the body as a multipart upload
// (@aws-sdk/lib-storage: 5 MB parts, one in flight, so a put buffers about a part or two of its
// body; a body under 5 MB goes as one PutObject; figures in docs/decisions.md),
// and S3 shows the object only once the upload completes: a body that fails mid-way aborts the
// upload, so neither an object nor a pending upload with its parts is left. Every call is bounded in
// time (connecting, waiting for the answer, silence on the socket) and retried by the SDK on
// transient errors. The credentials are handed to the SDK and never appear in a message.
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3StoreSettings } from '../../config.ts';
import { assertFileKey, type FileStore, type StoredObject } from './file-store.ts';

/** lib-storage's smallest part: what one put holds in memory at most (besides the stream's own buffer). */
const PART_BYTES = 5 * 1024 * 1024;

export class S3FileStore implements FileStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(settings: Omit<S3StoreSettings, 'kind'>) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix;
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
    });
  }

  async put(key: string, body: Readable, meta: { contentType: string }): Promise<StoredObject> {
    assertFileKey(key);
    let size = 0;
    let bodyError: unknown;
    async function* counted(): AsyncGenerator<Buffer> {
      try {
        for await (const chunk of body) {
          const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
          size += buffer.length;
          yield buffer;
        }
      } catch (error) {
        bodyError = error;
        throw error;
      }
    }
    const source = Readable.from(counted());
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.prefix + key, Body: source, ContentType: meta.contentType },
      partSize: PART_BYTES,
      queueSize: 1,
      // Aborted here, not by lib-storage: its abort failing would replace the body's error.
      leavePartsOnError: true,
    });
    try {
      await upload.done();
      return { key, size };
    } catch (error) {
      // S3 failed (or the body did): the rest of the body is not wanted, and the client's upload ends.
      source.destroy();
      if (!body.destroyed) body.destroy();
      const { uploadId } = upload;
      if (uploadId) {
        // Best effort: a bucket lifecycle rule (AbortIncompleteMultipartUpload) is the backstop
        // for an abort that fails too (docs/decisions.md).
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.prefix + key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw bodyError ?? error;
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

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404) &&
    error.name !== 'NoSuchBucket'
  );
}
