import { Type, type Static } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { ACCEPTED_FORMATS, FILE_KINDS } from './file-rules.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const Kind = Type.Enum([...FILE_KINDS], { description: 'What the file is' });

export const CandidateFile = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    candidateId: Type.String({ format: 'uuid' }),
    applicationId: Nullable(Type.String({ format: 'uuid', description: 'The application it was sent with, if any' })),
    kind: Kind,
    fileName: Type.String({ description: 'As uploaded, made safe: no path, no control characters, at most 255 characters' }),
    size: Type.Integer({ description: 'Bytes' }),
    contentType: Type.String({ description: `Decided from the bytes, never from the name: ${ACCEPTED_FORMATS}` }),
    uploadedBy: Type.Object(
      {
        type: Type.Enum(['USER', 'API_KEY', 'CANDIDATE'], {
          description: 'USER: a signed-in person; API_KEY: an integration; CANDIDATE: the candidate, applying through the job board or careers pages (id null)',
        }),
        id: Nullable(Type.String({ format: 'uuid' })),
        label: Type.String({ description: "The user's name (or e-mail), the API key's label at the time, or the job board" }),
      },
      { description: 'Who attached it' },
    ),
    createdAt: Type.String({ format: 'date-time' }),
    contentPath: Type.String({ description: 'Where its bytes are fetched (GET, scope candidates:read)' }),
    textStatus: Type.Enum(['PENDING', 'DONE', 'NONE', 'FAILED'], {
      description:
        'Its text, taken in the background after the upload (PDF, DOCX and TXT): PENDING until then, DONE, NONE for a type no text is taken from, FAILED when the file could not be read in time',
    }),
    contactSuggestions: Type.Union(
      [
        Type.Object({
          emails: Type.Array(Type.String()),
          phones: Type.Array(Type.String()),
          links: Type.Array(Type.String()),
        }),
        Type.Null(),
      ],
      { description: "Contact details found in its text (at most five of each): suggestions, never written over the candidate's own" },
    ),
  },
  { $id: 'CandidateFile', description: "A file attached to a candidate: its metadata (the bytes are fetched from contentPath)" },
);

export const CandidateFileParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const FileParams = Type.Object({ id: Type.String({ format: 'uuid' }), fileId: Type.String({ format: 'uuid' }) });
export const FileListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

/** The JSON form of an upload: the bytes in base64, or an https URL the server fetches. */
export const UploadFileJson = Type.Object(
  {
    kind: Kind,
    fileName: Type.String({ minLength: 1, maxLength: 1000, description: 'Kept without any path, control characters cut, at most 255 characters' }),
    applicationId: Type.Optional(Nullable(Type.String({ format: 'uuid', description: "One of this candidate's applications" }))),
    contentBase64: Type.Optional(Type.String({ minLength: 1, description: 'The file, base64 (standard alphabet, padded). Exactly one of contentBase64 and url.' })),
    url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2000,
        description:
          'An https URL the server fetches (30 s at most, redirects not followed; private, loopback and link-local addresses refused). Exactly one of contentBase64 and url.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UploadFileJson = Static<typeof UploadFileJson>;

/** The multipart form of an upload, for the OpenAPI document (the parts are read as a stream, not validated as a body). */
export const UploadFileMultipart = Type.Unsafe({
  type: 'object',
  required: ['kind', 'file'],
  properties: {
    kind: { type: 'string', enum: [...FILE_KINDS], description: 'What the file is (send before `file`)' },
    applicationId: { type: 'string', format: 'uuid', description: "One of this candidate's applications (send before `file`)" },
    file: { type: 'string', format: 'binary', description: 'The file, last part of the form; its part\'s filename is kept as fileName' },
  },
});

export const DownloadLink = Type.Object(
  {
    url: Type.String({ format: 'uri', description: 'Downloads the file without an API key until expiresAt' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'FileDownloadLink' },
);

export const SignedDownloadQuery = Type.Object(
  {
    expires: Type.String({ pattern: '^[0-9]{1,12}$', description: 'Seconds since 1970, as the link gives it' }),
    signature: Type.String({ maxLength: 64, description: 'As the link gives it' }),
  },
  { additionalProperties: false },
);

/** The bytes of a download, for the OpenAPI document. */
export const FileBytes = { type: 'string', format: 'binary' } as const;
