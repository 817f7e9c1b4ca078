// The file store's contract, run against every backend: what put, get, delete and list promise.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryFileStore } from '../../src/adapters/file-store/directory.ts';
import type { FileStore } from '../../src/adapters/file-store/file-store.ts';

function failingAfter(bytes: string): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.from(bytes));
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
