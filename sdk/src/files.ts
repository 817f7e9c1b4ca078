// Candidate files: upload (a Blob or File, a web ReadableStream, or a Node.js stream, which is an
// async iterable of bytes) as multipart/form-data, streamed; download as a stream with its name.
import type { RecruitingClient } from './client.ts';
import { RecruitingApiError, type ErrorEnvelope } from './client.ts';
import { ONE_SHOT_HEADER } from './retry.ts';
import type { components } from './schema.ts';

export type CandidateFile = components['schemas']['CandidateFile'];
export type CandidateFileKind = CandidateFile['kind'];

export interface UploadCandidateFileOptions {
  candidateId: string;
  kind: CandidateFileKind;
  /** The bytes: a Blob (or File), a web ReadableStream, or any async iterable of bytes (a Node.js Readable). */
  file: Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
  /** The name kept with the file (a File's own name by default). */
  fileName?: string;
  /** One of the candidate's applications. */
  applicationId?: string;
}

const encoder = new TextEncoder();

function quoted(text: string): string {
  return text.replace(/[\r\n"\\]/g, '_');
}

/** The form as a stream: fields first (the server checks them before it stores a byte), then the file. */
function multipartStream(boundary: string, fields: Array<[string, string]>, fileName: string, bytes: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const head =
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(fileName)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const iterator = bytes[Symbol.asyncIterator]();
  let stage: 'head' | 'body' | 'done' = 'head';
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === 'head') {
        stage = 'body';
        controller.enqueue(encoder.encode(head));
        return;
      }
      if (stage === 'done') return;
      const next = await iterator.next();
      if (!next.done) {
        controller.enqueue(next.value);
        return;
      }
      stage = 'done';
      controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
      controller.close();
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

async function* iterate(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Attaches a file to a candidate (`POST /public/v1/candidates/{id}/files`, multipart). A Blob is
 * sent as a FormData; a stream is sent as it is read, never held whole (such a request is not
 * retried: its body cannot be sent twice). Answers the file's metadata; throws RecruitingApiError.
 */
export async function uploadCandidateFile(client: RecruitingClient, options: UploadCandidateFileOptions): Promise<CandidateFile> {
  const fields: Array<[string, string]> = [['kind', options.kind]];
  if (options.applicationId) fields.push(['applicationId', options.applicationId]);
  const path = { id: options.candidateId };
  const { file } = options;
  let result;
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    form.append('file', file, options.fileName ?? (file as Blob & { name?: string }).name ?? 'file');
    result = await client.POST('/public/v1/candidates/{id}/files', {
      params: { path },
      body: form as never,
      bodySerializer: (body: unknown) => body as FormData,
    });
  } else {
    const bytes = file instanceof ReadableStream ? iterate(file) : (file as AsyncIterable<Uint8Array>);
    const boundary = `recruiting-sdk-${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
    result = await client.POST('/public/v1/candidates/{id}/files', {
      params: { path },
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, [ONE_SHOT_HEADER]: '1' },
      body: multipartStream(boundary, fields, options.fileName ?? 'file', bytes) as never,
      bodySerializer: (body: unknown) => body as ReadableStream,
      // A streamed request body (fetch requires it to be said).
      duplex: 'half',
    } as never);
  }
  const { data, error, response } = result as { data?: CandidateFile; error?: ErrorEnvelope; response: Response };
  if (!data) throw new RecruitingApiError(response.status, error);
  return data;
}

export interface DownloadedFile {
  /** The bytes, as they arrive. */
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** From Content-Disposition (its UTF-8 filename*). */
  fileName: string;
  size: number | undefined;
}

/** The name in a Content-Disposition header: `filename*` (RFC 5987) first, else `filename`. */
export function fileNameOf(disposition: string | null): string {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '');
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]*)"/i.exec(disposition ?? '')?.[1] ?? 'file';
}

/** A candidate's file as a stream (`GET .../files/{fileId}/content`); throws RecruitingApiError. */
export async function downloadCandidateFile(client: RecruitingClient, candidateId: string, fileId: string): Promise<DownloadedFile> {
  const { data, error, response } = (await client.GET('/public/v1/candidates/{id}/files/{fileId}/content', {
    params: { path: { id: candidateId, fileId } },
    parseAs: 'stream',
  })) as { data?: ReadableStream<Uint8Array> | null; error?: ErrorEnvelope; response: Response };
  if (!response.ok || !data) throw new RecruitingApiError(response.status, error);
  const length = Number(response.headers.get('content-length'));
  return {
    body: data,
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    fileName: fileNameOf(response.headers.get('content-disposition')),
    size: Number.isSafeInteger(length) ? length : undefined,
  };
}
