// The embedded default's file store: one file per object under a directory (DATA_DIR/files).
// Content goes to a temporary file first, is fsynced and then renamed into place, so a crash
// leaves either the whole object or none. Files 0600 and directories 0700, whatever the umask.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertFileKey, type FileStore, type StoredObject } from './file-store.ts';

export class DirectoryFileStore implements FileStore {
  private readonly objects: string;
  private readonly incoming: string;

  constructor(root: string) {
    this.objects = join(root, 'objects');
    this.incoming = join(root, 'incoming');
  }

  async put(key: string, body: Readable, _meta: { contentType: string }): Promise<StoredObject> {
    assertFileKey(key);
    const target = join(this.objects, key);
    await mkdir(this.incoming, { recursive: true, mode: 0o700 });
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    const temporary = join(this.incoming, randomUUID());
    try {
      let size = 0;
      body.on('data', (chunk: Buffer) => (size += chunk.length));
      await pipeline(body, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
      const handle = await open(temporary, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
      await syncDirectory(dirname(target));
      return { key, size };
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    assertFileKey(key);
    const path = join(this.objects, key);
    try {
      // Opened before it is returned: a missing file is `undefined`, not a stream that fails later.
      const handle = await open(path, 'r');
      // The FileHandle itself, not its number: a handle left to the garbage collector closes its fd a
      // second time, and Node raises that (EBADF) as an uncaught exception.
      return createReadStream('', { fd: handle, autoClose: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    await rm(join(this.objects, key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    const entries = await readdir(this.objects, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = relative(this.objects, join(entry.parentPath, entry.name)).split(sep).join('/');
      if (key.startsWith(prefix)) yield key;
    }
  }

  async close(): Promise<void> {}
}

/** A rename is durable only once its directory is synced. */
async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
