// The activity timeline's items: one shape per type, a union told apart by `type` (documented in
// the component's description, with an example of each type on the list's `data`).
import { Type, type TSchema } from 'typebox';
import { PageQuery, PaginationSchema } from '../../http/pagination.ts';
import { APPLICATION_STAGES } from '../applications/stages.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const Stage = Type.Enum(APPLICATION_STAGES);

/** The fields every item has, and its type. */
function item<K extends string, P extends Record<string, TSchema>>(type: K, title: string, properties: P) {
  return Type.Object(
    {
      id: Uuid('Stable id of the entry'),
      type: Type.Literal(type),
      occurredAt: Type.String({ format: 'date-time' }),
      actor: Nullable(Type.Ref('Actor')),
      applicationId: Nullable(Uuid('The application it concerns; null when it concerns the candidate as a whole')),
      ...properties,
    },
    { title },
  );
}

const NoteRef = Type.Object({
  id: Uuid(),
  body: Nullable(Type.String({ description: 'The text as it is now; null once the note is deleted' })),
});

export const ActivityItem = Type.Union(
  [
    item('application.created', 'Applied', {
      application: Type.Object({ id: Uuid(), jobListingId: Uuid(), source: Type.String(), status: Stage }),
    }),
    item('application.status_changed', 'Stage move', {
      stageMove: Type.Object({ fromStatus: Stage, toStatus: Stage, reason: Nullable(Type.String()), jobListingId: Uuid() }),
    }),
    item('note.created', 'Note written', { note: NoteRef }),
    item('note.updated', 'Note edited (its last edit)', { note: NoteRef }),
    item('note.deleted', 'Note deleted', { note: NoteRef }),
    item('candidate.created', 'Candidate added (applied, imported, entered)', {
      candidate: Type.Object({ id: Uuid(), source: Type.String({ description: 'IMPORTED for an import' }) }),
    }),
    item('candidate.erased', 'Candidate erased on request', {
      erasure: Type.Object({ candidateId: Uuid(), applicationIds: Type.Array(Uuid()) }),
    }),
    item('candidate.file_added', 'File added', {
      file: Type.Object({}, { additionalProperties: true, description: "The file as its event describes it (no content)" }),
    }),
    item('candidate.file_removed', 'File removed', {
      file: Type.Object({}, { additionalProperties: true, description: "The file as its event describes it (no content)" }),
    }),
  ],
  {
    $id: 'ActivityItem',
    description: [
      'One thing that happened, told apart by `type`; every item has `id`, `type`, `occurredAt`, `actor` (who: null when not recorded, e.g. the system or an import) and `applicationId`, and one object named after what happened:',
      '- `application.created` (`application`): the candidate applied or was entered into a listing\'s pipeline (from the stage history, kept for good);',
      '- `application.status_changed` (`stageMove`): a stage move, with who and why (the stage history, kept for good);',
      '- `note.created`, `note.updated` (the last edit), `note.deleted` (`note`): from the notes themselves, kept for good;',
      '- `candidate.created` (`candidate`): the candidate was added; `source` IMPORTED for an import (candidate timeline only);',
      '- `candidate.erased` (`erasure`), `candidate.file_added`, `candidate.file_removed` (`file`): from the recorded events, which are kept 30 days by default (`RETENTION_EVENTS_DAYS`): older ones are no longer listed.',
    ].join('\n'),
  },
);

const EXAMPLE_ACTOR = { type: 'USER', id: 'f6e5d4c3-b2a1-4f0e-9d8c-7b6a5f4e3d2c', label: 'Linus Recruiter' };
const APPLICATION = '8d7e6f5a-4b3c-4d2e-8f1a-0b9c8d7e6f5a';
const LISTING = '5f0c8a4e-2b7d-4c1e-9a3f-1d2e3f4a5b6c';

/** One item of each common type, newest first, for the list's example. */
const EXAMPLE_ITEMS = [
  {
    id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
    type: 'note.created',
    occurredAt: '2026-03-04T15:10:00.000Z',
    actor: EXAMPLE_ACTOR,
    applicationId: APPLICATION,
    note: { id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d', body: 'Phone screen went well: strong on API design, wants to start in May.' },
  },
  {
    id: '3b4c5d6e-7f8a-4b9c-8d1e-2f3a4b5c6d7e',
    type: 'application.status_changed',
    occurredAt: '2026-03-03T11:00:00.000Z',
    actor: { type: 'API_KEY', id: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d', label: 'ATS sync' },
    applicationId: APPLICATION,
    stageMove: { fromStatus: 'ACTIVE', toStatus: 'IN_REVIEW', reason: 'Strong API background', jobListingId: LISTING },
  },
  {
    id: '4c5d6e7f-8a9b-4c0d-9e2f-3a4b5c6d7e8f',
    type: 'application.created',
    occurredAt: '2026-03-02T09:30:00.000Z',
    actor: null,
    applicationId: APPLICATION,
    application: { id: APPLICATION, jobListingId: LISTING, source: 'CAREER_SITE', status: 'ACTIVE' },
  },
  {
    id: 'c4a1e2d3-5b6f-4a7c-9d8e-2f1a0b9c8d7e',
    type: 'candidate.created',
    occurredAt: '2026-03-02T09:30:00.000Z',
    actor: null,
    applicationId: null,
    candidate: { id: 'c4a1e2d3-5b6f-4a7c-9d8e-2f1a0b9c8d7e', source: 'CAREER_SITE' },
  },
];

export const ActivityPage = Type.Object(
  {
    data: Type.Array(Type.Ref('ActivityItem'), { examples: [EXAMPLE_ITEMS] }),
    pagination: PaginationSchema,
  },
);

export const ActivityQuery = Type.Object(PageQuery, { additionalProperties: false });
export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const activitySchemas = [ActivityItem];
