import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import { CreateNoteBody, IdParams, NoteListQuery, NoteParams, noteSchemas, UpdateNoteBody } from './schemas.ts';
import { createNote, deleteNote, editNote, listApplicationNotes, listCandidateNotes } from './service.ts';

const tags = ['Notes'];
const read = { auth: { scope: 'candidates:read' as const } };
// A recruiter (MEMBER) writes notes with the pipeline's scope; an API key needs candidates:write.
const write = { auth: { scope: 'candidates:write' as const, peopleScope: 'applications:write' as const } };

export async function noteRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/public/v1/candidates/:id/notes',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listCandidateNotes',
        summary: "List a candidate's notes",
        description: "Every note on the candidate, those on one of their applications included (see `applicationId`), newest first. 404 for an unknown or erased candidate.",
        params: IdParams,
        querystring: NoteListQuery,
        response: { 200: Paginated(Type.Ref('Note')), ...errorResponses([404, 422]) },
      },
    },
    async (request) => listCandidateNotes(app.ctx, principalOf(request).companyId, request.params.id, request.query),
  );

  app.post(
    '/public/v1/candidates/:id/notes',
    {
      config: write,
      schema: {
        tags,
        operationId: 'createCandidateNote',
        summary: 'Write a note on a candidate',
        description:
          "Plain text, 1 to 10,000 characters, visible to the whole company. With `applicationId` (one of this candidate's applications, else 422) the note is also listed on that application. The caller is the author: the signed-in user, or the API key (shown with its label). Emits note.created.",
        params: IdParams,
        body: CreateNoteBody,
        response: { 201: Type.Ref('Note'), ...errorResponses([400, 404, 422]) },
      },
    },
    async (request, reply) => reply.status(201).send(await createNote(app.ctx, principalOf(request), request.params.id, request.body)),
  );

  app.patch(
    '/public/v1/candidates/:id/notes/:noteId',
    {
      config: write,
      schema: {
        tags,
        operationId: 'updateCandidateNote',
        summary: 'Edit a note',
        description:
          'Only its author edits a note (the same user, or the same API key): anyone else gets 403. The same text again answers 200 and changes nothing. Emits note.updated.',
        params: NoteParams,
        body: UpdateNoteBody,
        response: { 200: Type.Ref('Note'), ...errorResponses([400, 404, 422]) },
      },
    },
    async (request) => editNote(app.ctx, principalOf(request), request.params.id, request.params.noteId, request.body),
  );

  app.delete(
    '/public/v1/candidates/:id/notes/:noteId',
    {
      config: write,
      schema: {
        tags,
        operationId: 'deleteCandidateNote',
        summary: 'Delete a note',
        description:
          "Its author, a company ADMIN, or an API key with candidates:write (a key acts for the whole company) deletes a note; a user who is neither its author nor an ADMIN gets 403. The note answers 404 from then on; the candidate's activity keeps that it was deleted, and by whom. Emits note.deleted.",
        params: NoteParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      await deleteNote(app.ctx, principalOf(request), request.params.id, request.params.noteId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/public/v1/applications/:id/notes',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listApplicationNotes',
        summary: "List an application's notes",
        description: 'The notes written on the candidate with this `applicationId`, newest first. Write one with POST /public/v1/candidates/{id}/notes and `applicationId` in the body. 404 for an unknown application.',
        params: IdParams,
        querystring: NoteListQuery,
        response: { 200: Paginated(Type.Ref('Note')), ...errorResponses([404, 422]) },
      },
    },
    async (request) => listApplicationNotes(app.ctx, principalOf(request).companyId, request.params.id, request.query),
  );
}

export { noteSchemas };
