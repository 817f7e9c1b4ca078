// The note events (pure): names and payloads. Registered in the outbox's EventCatalogue.
import type { ActorView, NoteView } from './service.ts';

export const NOTE_EVENTS = ['note.created', 'note.updated', 'note.deleted'] as const;
export type NoteEvent = (typeof NOTE_EVENTS)[number];

export interface NoteEventPayloads {
  'note.created': { note: NoteView };
  'note.updated': { note: NoteView };
  /** Ids and who deleted it: the body is gone. */
  'note.deleted': { noteId: string; candidateId: string; applicationId: string | null; deletedBy: ActorView };
}

const NOTE = { type: 'object', required: ['note'], properties: { note: { $ref: 'Note' } } };
const UUID = { type: 'string', format: 'uuid' };

/** When each event is sent and what its `data` holds, in words and as JSON Schema ($ref: a component). */
export const NOTE_EVENT_PAYLOADS: Record<NoteEvent, { sentWhen: string; dataNote: string; data: object }> = {
  'note.created': {
    sentWhen: 'a note is written on a candidate (`POST /candidates/{id}/notes`)',
    dataNote: '`{ note }` (its body included; blanked if the candidate is erased)',
    data: NOTE,
  },
  'note.updated': {
    sentWhen: 'its author edits a note',
    dataNote: '`{ note }` (the new body)',
    data: NOTE,
  },
  'note.deleted': {
    sentWhen: 'a note is deleted (by its author, a company ADMIN or an API key)',
    dataNote: '`{ noteId, candidateId, applicationId, deletedBy }` (no body)',
    data: {
      type: 'object',
      required: ['noteId', 'candidateId', 'applicationId', 'deletedBy'],
      properties: {
        noteId: UUID,
        candidateId: UUID,
        applicationId: { type: ['string', 'null'], format: 'uuid' },
        deletedBy: { $ref: 'Actor' },
      },
    },
  },
};

declare module '../../infra/outbox/record-event.ts' {
  interface EventCatalogue extends NoteEventPayloads {}
}
