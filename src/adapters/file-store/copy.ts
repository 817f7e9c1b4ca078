// Every object of one file store into another (export-to-postgres --files-to s3): one at a time,
// each streamed from the source into the target, never held whole in memory.
import type { FileStore } from './file-store.ts';

export async function copyFiles(from: FileStore, to: FileStore): Promise<{ copied: number; bytes: number }> {
  let copied = 0;
  let bytes = 0;
  for await (const key of from.list('')) {
    const body = await from.get(key);
    if (!body) continue; // removed meanwhile
    // The content type lives with the file's row; the bytes are all a store keeps.
    const stored = await to.put(key, body, { contentType: 'application/octet-stream' });
    copied += 1;
    bytes += stored.size;
  }
  return { copied, bytes };
}
