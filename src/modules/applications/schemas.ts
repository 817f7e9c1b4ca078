import { Type, type Static, type TSchema } from 'typebox';
import { PageQuery, UpdatedSince } from '../../http/pagination.ts';
import { candidateProperties, ResumeInput } from '../candidates/schemas.ts';
import { APPLICATION_SOURCES, APPLICATION_STAGES } from './stages.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Stage = Type.Enum(APPLICATION_STAGES,
  { description: `Pipeline stage: ${APPLICATION_STAGES.join(', ')}. ACTIVE is a new application.` },
);
const Source = Type.Enum(APPLICATION_SOURCES,
  { description: `Where the application came from: ${APPLICATION_SOURCES.join(', ')}` },
);

const applicationProperties = {
  id: Type.String({ format: 'uuid' }),
  jobListingId: Type.String({ format: 'uuid' }),
  jobSeekerId: Type.String({ format: 'uuid', description: 'The candidate id (candidate.id)' }),
  status: Stage,
  source: Source,
  coverLetter: Nullable(Type.String()),
  appliedAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time', description: 'Last stage move (appliedAt until the first)' }),
  rejectionReasonId: Nullable(
    Type.String({ format: 'uuid', description: 'In REJECTED or WITHDRAWN: the rejection reason the move there gave (GET /public/v1/rejection-reasons/{id}); else null' }),
  ),
  candidate: Type.Ref('CandidateSummary'),
};

/** An application as listed: the candidate summary embedded, the listing by id. */
export const ApplicationSummary = Type.Object(applicationProperties, { $id: 'ApplicationSummary' });

/** An application with its embedded job listing and candidate (get, submit, status update). */
export const Application = Type.Object(
  { ...applicationProperties, jobListing: Type.Ref('JobListing') },
  { $id: 'Application' },
);

export const ApplicationStatusChange = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    applicationId: Type.String({ format: 'uuid' }),
    fromStatus: Nullable(Stage),
    toStatus: Stage,
    reason: Nullable(Type.String({ description: 'The free-text note the move gave' })),
    rejectionReason: Type.Union([Type.Ref('RejectionReasonRef'), Type.Null()], {
      description: 'The company\'s rejection reason the move gave (a move to REJECTED or WITHDRAWN); null for none',
    }),
    changedByApiKeyId: Nullable(
      Type.String({ format: 'uuid', description: 'The API key that made the move; null for the dashboard or the system' }),
    ),
    changedAt: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'ApplicationStatusChange',
    description: 'One stage an application entered; the first entry (fromStatus null) is the submission',
  },
);

export const SubmitApplicationBody = Type.Object(
  {
    jobListingId: Type.String({ format: 'uuid', description: 'An ACTIVE job listing of the company' }),
    candidate: Type.Object(
      {
        firstName: Type.String({ minLength: 1, maxLength: 100 }),
        lastName: Type.String({ minLength: 1, maxLength: 100 }),
        email: Type.String({
          format: 'email',
          maxLength: 254,
          description: 'Matched without letter case against the company\'s candidates; a new candidate is created when none matches',
        }),
        phone: Type.Optional(Type.String({ maxLength: 50 })),
        headline: Type.Optional(Type.String({ maxLength: 200 })),
      },
      { additionalProperties: false },
    ),
    source: Type.Optional(Type.Enum(APPLICATION_SOURCES, { default: 'EXTERNAL' })),
    coverLetter: Type.Optional(Type.String({ maxLength: 20_000 })),
    resume: Type.Optional(ResumeInput),
  },
  { additionalProperties: false },
);
export type SubmitApplicationBody = Static<typeof SubmitApplicationBody>;

export const UpdateStatusBody = Type.Object(
  {
    status: Stage,
    reason: Type.Optional(Type.String({ maxLength: 1000, description: 'A free-text note, kept with the move in the history and sent in the event' })),
    reasonId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'Only with status REJECTED (a REJECTION reason) or WITHDRAWN (a WITHDRAWAL reason): one of the company\'s active reasons (GET /public/v1/rejection-reasons). Required for REJECTED when the company says so (`requiresRejectionReason`). 422 otherwise.',
      }),
    ),
    expectedStatus: Type.Optional(
      Type.Enum(APPLICATION_STAGES, {
        description: 'The stage the caller believes the application is in: 409 when it is no longer there',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateStatusBody = Static<typeof UpdateStatusBody>;

export const ApplicationListQuery = Type.Object(
  {
    ...PageQuery,
    jobListingId: Type.Optional(Type.String({ format: 'uuid' })),
    status: Type.Optional(
      Type.Array(Type.Enum(APPLICATION_STAGES), {
        description: 'Only these stages (repeat the parameter for several)',
      }),
    ),
    candidateId: Type.Optional(Type.String({ format: 'uuid', description: 'Only applications of this candidate (jobSeekerId)' })),
    updatedSince: UpdatedSince('applications'),
    source: Type.Optional(
      Type.Array(Type.Enum(APPLICATION_SOURCES), {
        description: `Only applications from these sources (repeat the parameter for several): ${APPLICATION_SOURCES.join(', ')}`,
      }),
    ),
    appliedFrom: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only applications submitted at or after this instant (`appliedAt`, inclusive)' }),
    ),
    appliedTo: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Only applications submitted before this instant (`appliedAt`, exclusive: a period is [appliedFrom, appliedTo)); after appliedFrom when both are given, else 422',
      }),
    ),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Only applications whose candidate matches this search, as the candidates list\'s `q`: full-text over name, email, headline, skills and the text of the candidate\'s files (once read: `textStatus` DONE). Every word must match, as a word or the start of one ("jav" finds "Java"); leading and trailing spaces are ignored, and a blank one is 422. The order stays newest first (no relevance); totalElements counts every match.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ApplicationListQuery = Static<typeof ApplicationListQuery>;

export const ApplicationIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** A candidate's profile lists their applications: the pipeline's side of the candidate. */
export const CandidateApplication = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    jobListingId: Type.String({ format: 'uuid' }),
    status: Type.Enum(APPLICATION_STAGES),
    source: Type.String(),
    appliedAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'CandidateApplication', description: "A summary of one of the candidate's applications" },
);

export const CandidateProfile = Type.Object(
  {
    ...candidateProperties,
    applications: Type.Array(Type.Ref('CandidateApplication'), { description: 'Newest first' }),
  },
  { $id: 'CandidateProfile', description: 'The full candidate profile' },
);

export const applicationSchemas = [ApplicationSummary, Application, ApplicationStatusChange];
