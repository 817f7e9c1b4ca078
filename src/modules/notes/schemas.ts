import { Type, type Static, type TSchema } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const MAX_NOTE_LENGTH = 10_000;

/** Who did something: a person (a user's token) or an API key. */
export const Actor = Type.Object(
  {
    type: Type.Enum(['USER', 'API_KEY'], { description: 'USER: a signed-in person (the dashboard, or an application acting for them); API_KEY: an integration' }),
    id: Type.String({ format: 'uuid', description: 'The user id, or the API key id' }),
    label: Nullable(Type.String({ description: "The user's name, or the API key's label (as it is now); null when the user gave no name or the key is gone" })),
  },
  {
    $id: 'Actor',
    description: 'Who did it',
    examples: [{ type: 'API_KEY', id: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d', label: 'ATS sync' }],
  },
);

export const Note = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    candidateId: Type.String({ format: 'uuid' }),
    applicationId: Nullable(Type.String({ format: 'uuid', description: "One of the candidate's applications the note is about; null: the candidate as a whole" })),
    body: Type.String({ description: 'Plain text (never rendered as HTML), 1 to 10,000 characters' }),
    author: Type.Ref('Actor'),
    createdAt: Type.String({ format: 'date-time' }),
    editedAt: Nullable(Type.String({ format: 'date-time', description: 'The last edit; null when never edited' })),
  },
  {
    $id: 'Note',
    description: "A note on a candidate, visible to the whole company. Only its author edits it; its author, a company ADMIN or an API key with candidates:write deletes it.",
    examples: [
      {
        id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
        candidateId: 'c4a1e2d3-5b6f-4a7c-9d8e-2f1a0b9c8d7e',
        applicationId: '8d7e6f5a-4b3c-4d2e-8f1a-0b9c8d7e6f5a',
        body: 'Phone screen went well: strong on API design, wants to start in May.',
        author: { type: 'USER', id: 'f6e5d4c3-b2a1-4f0e-9d8c-7b6a5f4e3d2c', label: 'Linus Recruiter' },
        createdAt: '2026-03-02T09:30:00.000Z',
        editedAt: null,
      },
    ],
  },
);

const Body = Type.String({
  minLength: 1,
  maxLength: MAX_NOTE_LENGTH,
  description: `Plain text, 1 to ${MAX_NOTE_LENGTH.toLocaleString('en')} characters (NUL characters are refused)`,
});

export const CreateNoteBody = Type.Object(
  {
    body: Body,
    applicationId: Type.Optional(Type.String({ format: 'uuid', description: "One of this candidate's applications the note is about (422 otherwise)" })),
  },
  { additionalProperties: false },
);
export type CreateNoteBody = Static<typeof CreateNoteBody>;

export const UpdateNoteBody = Type.Object({ body: Body }, { additionalProperties: false });
export type UpdateNoteBody = Static<typeof UpdateNoteBody>;

export const NoteListQuery = Type.Object(PageQuery, { additionalProperties: false });

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const NoteParams = Type.Object({ id: Type.String({ format: 'uuid' }), noteId: Type.String({ format: 'uuid' }) });

export const noteSchemas = [Actor, Note];
