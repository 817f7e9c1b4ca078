// An upload on its way to the file store: counted against the size limit, its type decided from
// its first bytes before anything is written, a text file checked to its last byte. Never holds
// more than the first SNIFF_BYTES: the rest streams through as it arrives.
import { Readable } from 'node:stream';
import { DomainError, ValidationError } from '../../shared/errors.ts';
import { ACCEPTED_FORMATS, detectType, PlainTextCheck, SNIFF_BYTES, type AcceptedType } from './file-rules.ts';

export function fileTooLarge(maxBytes: number): DomainError {
  return new DomainError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${maxBytes} bytes`);
}

export function unsupportedType(): DomainError {
  return new DomainError('UNSUPPORTED_MEDIA_TYPE', `The file's content is not an accepted type (${ACCEPTED_FORMATS}); the type is decided from the bytes, not the name`);
}

export interface Intake {
  type: AcceptedType;
  /** The whole file, head included; fails (413, 415) as soon as the rest breaks a rule. */
  body: Readable;
  /** Bytes that passed so far (the whole size once `body` has ended). */
  readonly size: number;
}

/**
 * Reads the head of `source`, decides its type (415 when refused, 413 past `maxBytes`, 422 when
 * empty), and answers the stream of the whole file. On a refusal the source is closed unread.
 */
export async function takeIn(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Intake> {
  const iterator = source[Symbol.asyncIterator]();
  const close = async () => {
    await iterator.return?.().catch(() => undefined);
  };
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  try {
    while (size < SNIFF_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        ended = true;
        break;
      }
      const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) throw fileTooLarge(maxBytes);
    }
    if (size === 0) throw ValidationError.field('file', 'is empty');
  } catch (error) {
    await close();
    throw error;
  }
  const head = Buffer.concat(chunks);
  const type = await detectType(head.subarray(0, SNIFF_BYTES));
  if (!type) {
    await close();
    throw unsupportedType();
  }
  const text = type.format === 'TXT' ? new PlainTextCheck() : undefined;
  if (text && !text.push(head)) {
    await close();
    throw unsupportedType();
  }
  const body = Readable.from(
    (async function* () {
      try {
        yield head;
        if (!ended) {
          for (;;) {
            const next = await iterator.next();
            if (next.done) break;
            const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
            size += chunk.length;
            if (size > maxBytes) throw fileTooLarge(maxBytes);
            if (text && !text.push(chunk)) throw unsupportedType();
            yield chunk;
          }
        }
        if (text && !text.end()) throw unsupportedType();
      } finally {
        await close();
      }
    })(),
    { objectMode: false },
  );
  return {
    type,
    body,
    get size() {
      return size;
    },
  };
}
