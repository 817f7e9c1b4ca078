// Where uploaded files' bytes live: one interface, two backends chosen by FILE_STORE (directory.ts
// under DATA_DIR for the embedded default; S3-compatible object storage for a deployment whose
// servers and workers must all see the same files). Services never see which one it is.
import type { Readable } from 'node:stream';

/** What put() stored. */
export interface StoredObject {
  key: string;
  /** Bytes written. */
  size: number;
}

export interface FileStore {
  /**
   * Streams `body` into a new object under `key` (never buffered whole). The object appears only
   * once every byte is durable: if `body` fails (for example a size limit aborts it), put rejects
   * with that error and nothing is left under `key`. A key is written once; writing it again
   * replaces it whole.
   */
  put(key: string, body: Readable, meta: { contentType: string }): Promise<StoredObject>;
  /** The object's bytes as a stream, or undefined when there is no such object. */
  get(key: string): Promise<Readable | undefined>;
  /** Removes the object; removing one that is not there is no error (erasure retries call it again). */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (backup, export and the orphan sweep walk these). */
  list(prefix: string): AsyncIterable<string>;
  close(): Promise<void>;
}

/** Keys are ours, never a client's text: lower-case letters, digits, `-`, `_`, `.` and `/` between parts. */
const KEY = /^[a-z0-9_-]+(?:[./][a-z0-9_-]+)*$/;

export function assertFileKey(key: string): void {
  if (!KEY.test(key) || key.length > 512) throw new Error(`Not a file store key: ${JSON.stringify(key)}`);
}
