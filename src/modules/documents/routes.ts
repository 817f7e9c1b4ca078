// Candidate files over HTTP (README.md): multipart and JSON uploads, list, metadata, download,
// signed links, delete. Only HTTP here: reading the multipart form's parts in order and the
// download's headers; every rule is in service.ts and file-rules.ts.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import { ValidationError } from '../../shared/errors.ts';
import { FILE_KINDS, attachmentDisposition, type FileKind } from './file-rules.ts';
import {
  CandidateFile,
  CandidateFileParams,
  DownloadLink,
  FileBytes,
  FileListQuery,
  FileParams,
  SignedDownloadQuery,
  UploadFileJson,
  UploadFileMultipart,
} from './schemas.ts';
import {
  addCandidateFile,
  createDownloadLink,
  deleteCandidateFile,
  getCandidateFile,
  listCandidateFiles,
  openCandidateFileContent,
  openSignedDownload,
  uploaderOf,
  type AddFileInput,
  type FileContent,
} from './service.ts';

const tags = ['Candidates'];
const read = { auth: { scope: 'candidates:read' as const } };
const write = { auth: { scope: 'candidates:write' as const } };
const MULTIPART_FIELDS = ['kind', 'applicationId'];

const binaryResponse = (description: string) => ({
  description,
  content: { 'application/octet-stream': { schema: FileBytes } },
  headers: {
    'Content-Disposition': { type: 'string', description: 'attachment; filename="..."; filename*=UTF-8\'\'... (never inline)' },
    'X-Content-Type-Options': { type: 'string', description: 'nosniff' },
  },
});

/**
 * The form's fields, then its file part, as a stream (never read whole here). Fields must come
 * before the file: the checks run before the first byte is stored.
 */
async function readMultipart(request: FastifyRequest, candidateId: string): Promise<AddFileInput> {
  const parts = request.parts()[Symbol.asyncIterator]();
  const fields: Record<string, string> = {};
  for (;;) {
    const next = await parts.next();
    if (next.done) throw ValidationError.field('file', 'is required (a part named file, after kind)');
    const part = next.value;
    if (part.type === 'file') {
      const file = part as MultipartFile;
      if (file.fieldname !== 'file') {
        file.file.resume();
        throw ValidationError.field(file.fieldname, 'is not a field of this form (the file part is named file)');
      }
      const kind = fields.kind;
      if (!kind || !(FILE_KINDS as readonly string[]).includes(kind)) {
        file.file.resume();
        throw ValidationError.field('kind', `must be one of ${FILE_KINDS.join(', ')}, sent before the file part`);
      }
      const applicationId = fields.applicationId || undefined;
      if (applicationId !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(applicationId)) {
        file.file.resume();
        throw ValidationError.field('applicationId', 'must be a UUID');
      }
      return { candidateId, kind: kind as FileKind, fileName: file.filename || 'file', applicationId, source: { kind: 'stream', stream: file.file } };
    }
    if (!MULTIPART_FIELDS.includes(part.fieldname)) throw ValidationError.field(part.fieldname, 'is not a field of this form');
    fields[part.fieldname] = String(part.value);
  }
}

function fromJson(body: UploadFileJson, candidateId: string): AddFileInput {
  const base = { candidateId, kind: body.kind as FileKind, fileName: body.fileName, applicationId: body.applicationId };
  if ((body.contentBase64 === undefined) === (body.url === undefined)) {
    throw ValidationError.field('contentBase64', 'exactly one of contentBase64 and url is required');
  }
  if (body.contentBase64 !== undefined) return { ...base, source: { kind: 'base64', data: body.contentBase64, field: 'contentBase64' } };
  return { ...base, source: { kind: 'url', url: body.url!, field: 'url' } };
}

/** The bytes as an attachment: never rendered inline, never sniffed into another type. */
function sendContent(reply: FastifyReply, { file, body }: FileContent) {
  return reply
    .header('Content-Type', file.contentType)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', attachmentDisposition(file.fileName))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .send(body);
}

export async function documentRoutes(app: AppInstance): Promise<void> {
  const maxBytes = app.deps.config.fileMaxBytes;
  await app.register(multipart, {
    // One more byte than allowed reaches the service, which answers 413 (busboy only truncates).
    limits: { fileSize: maxBytes + 1, files: 1, fields: MULTIPART_FIELDS.length, fieldSize: 100, parts: MULTIPART_FIELDS.length + 1 },
    throwFileSizeLimit: false,
  });

  // The multipart form is read as a stream by the handler, not parsed into a body: its schema is for
  // the OpenAPI document only, so no validator checks a body that is not there.
  const validators = app.validatorCompiler;
  app.post(
    '/public/v1/candidates/:id/files',
    {
      config: write,
      validatorCompiler: (route) => (route.httpPart === 'body' && route.contentType === 'multipart/form-data' ? () => true : validators!(route)),
      // The JSON form carries the file in base64: 4/3 of the limit, and room for the other fields.
      bodyLimit: Math.ceil((maxBytes * 4) / 3) + 64 * 1024,
      schema: {
        tags,
        operationId: 'uploadCandidateFile',
        summary: 'Attach a file to a candidate',
        description: [
          'Two forms. `multipart/form-data` (streamed to storage, never held whole): fields `kind` and optionally `applicationId`, then the part `file` (its filename is kept). JSON: `{ kind, fileName, applicationId?, contentBase64 }` or `{ kind, fileName, applicationId?, url }` with an https URL the server fetches (30 s at most, redirects not followed, private and loopback addresses refused: 422).',
          `Accepted types, decided from the bytes and not from the name or Content-Type: ${'PDF, DOC, DOCX, ODT, RTF, TXT (UTF-8 text, not markup), PNG, JPEG'}; anything else answers 415. Larger than the server's limit (FILE_MAX_BYTES, 10 MB by default): 413. Bad base64: 422. After any refusal nothing is stored.`,
          '`applicationId` must be one of the candidate\'s applications (422). Emits `candidate.file_added`. With Idempotency-Key, a multipart retry is recognised by the key and the URL only (the form is not read twice).',
        ].join('\n\n'),
        params: CandidateFileParams,
        body: {
          content: {
            'application/json': { schema: UploadFileJson },
            'multipart/form-data': { schema: UploadFileMultipart },
          },
        },
        response: {
          201: Type.Ref('CandidateFile'),
          ...errorResponses([404, 422]),
          413: { ...Type.Ref('ErrorEnvelope'), description: 'The file is larger than FILE_MAX_BYTES (or the JSON body larger than its base64 allows)' },
          415: { ...Type.Ref('ErrorEnvelope'), description: 'The bytes are not an accepted type, or the body is neither JSON nor multipart/form-data' },
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const input = request.isMultipart() ? await readMultipart(request, request.params.id) : fromJson(request.body as UploadFileJson, request.params.id);
      const file = await addCandidateFile(app.ctx, principal.companyId, input, await uploaderOf(app.ctx, principal), { maxBytes });
      return reply.status(201).header('Location', `/public/v1/candidates/${file.candidateId}/files/${file.id}`).send(file);
    },
  );

  app.get(
    '/public/v1/candidates/:id/files',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listCandidateFiles',
        summary: "List a candidate's files",
        description: 'Newest first; metadata only (each names its contentPath).',
        params: CandidateFileParams,
        querystring: FileListQuery,
        response: { 200: Paginated(Type.Ref('CandidateFile')), ...errorResponses([404, 422]) },
      },
    },
    async (request) => listCandidateFiles(app.ctx, principalOf(request).companyId, request.params.id, request.query),
  );

  app.get(
    '/public/v1/candidates/:id/files/:fileId',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getCandidateFile',
        summary: "A candidate's file (metadata)",
        params: FileParams,
        response: { 200: Type.Ref('CandidateFile'), ...errorResponses([404, 422]) },
      },
    },
    async (request) => getCandidateFile(app.ctx, principalOf(request).companyId, request.params.id, request.params.fileId),
  );

  app.get(
    '/public/v1/candidates/:id/files/:fileId/content',
    {
      config: read,
      schema: {
        tags,
        operationId: 'downloadCandidateFile',
        summary: "Download a candidate's file",
        description:
          'The bytes, streamed, with the type decided at upload, `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`: never rendered inline by a browser.',
        params: FileParams,
        response: { 200: binaryResponse('The file'), ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) =>
      sendContent(reply, await openCandidateFileContent(app.ctx, principalOf(request).companyId, request.params.id, request.params.fileId)),
  );

  app.get(
    '/public/v1/candidates/:id/files/:fileId/url',
    {
      config: read,
      schema: {
        tags,
        operationId: 'createCandidateFileLink',
        summary: 'A short-lived download link',
        description:
          'A URL that downloads the file without an API key for 5 minutes (for a browser or a system that wants a link). Signed by the server (HMAC, bound to the file and the expiry): a changed or expired link answers 403.',
        params: FileParams,
        response: { 200: Type.Ref('FileDownloadLink'), ...errorResponses([404, 422]) },
      },
    },
    async (request) => createDownloadLink(app.ctx, principalOf(request).companyId, request.params.id, request.params.fileId, app.deps.config.baseUrl),
  );

  app.delete(
    '/public/v1/candidates/:id/files/:fileId',
    {
      config: write,
      schema: {
        tags,
        operationId: 'deleteCandidateFile',
        summary: "Delete a candidate's file",
        description: 'Removes the file and its stored bytes. Emits `candidate.file_removed`. Answers 204.',
        params: FileParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      await deleteCandidateFile(app.ctx, principalOf(request).companyId, request.params.id, request.params.fileId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/file-downloads/:fileId',
    {
      schema: {
        tags,
        operationId: 'downloadFileByLink',
        summary: 'Download a file through a signed link',
        description:
          'The URL `GET /public/v1/candidates/{id}/files/{fileId}/url` answers (outside /public/v1: no API key, the signature is the credential). Expired or altered: 403; the file deleted since: 404. The same headers as the authenticated download.',
        security: [],
        params: Type.Object({ fileId: Type.String({ format: 'uuid' }) }),
        querystring: SignedDownloadQuery,
        response: { 200: binaryResponse('The file'), ...errorResponses([403, 404, 422]) },
      },
    },
    async (request, reply) => sendContent(reply, await openSignedDownload(app.ctx, request.params.fileId, request.query.expires, request.query.signature)),
  );
}

export const documentSchemas = [CandidateFile, DownloadLink];
