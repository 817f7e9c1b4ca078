import { Type, type Static, type TSchema } from 'typebox';
import { PageQuery, UpdatedSince } from '../../http/pagination.ts';
import { CANDIDATE_SOURCES } from './sources.ts';

export const MAX_IMPORT_ROWS = 1000;

const Email = Type.String({ format: 'email', maxLength: 254 });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const summaryProperties = {
  id: Type.String({ format: 'uuid', description: 'The candidate id (an application calls it jobSeekerId)' }),
  firstName: Type.String(),
  lastName: Type.String(),
  headline: Nullable(Type.String()),
  email: Type.String({ description: 'Unique within the company, compared without letter case' }),
  phone: Nullable(Type.String()),
};

/** The contract's candidate summary, embedded in an application. */
export const CandidateSummary = Type.Object(summaryProperties, {
  $id: 'CandidateSummary',
  description: 'The candidate summary embedded in an application',
});

export const candidateProperties = {
  ...summaryProperties,
  location: Nullable(Type.String({ description: 'Free text, e.g. "Berlin, DE"' })),
  skills: Type.Array(Type.String()),
  links: Type.Array(Type.String({ description: 'URL of a profile, portfolio or CV' })),
  source: Type.String({
    description: `How the candidate first reached the company: ${CANDIDATE_SOURCES.join(', ')}`,
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

/** A candidate as listed (the profile without its applications). */
export const Candidate = Type.Object(candidateProperties, { $id: 'Candidate' });

export const CandidateListQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Full-text search over name, email, headline, skills and the text of the candidate\'s files (PDF, DOCX and TXT, once read by the scheduled work: `textStatus` DONE). Every word must match, as a word or the start of one ("jav" finds "Java"). Results: the newest 500 matches ordered by relevance, then the older matches newest first; totalElements counts every match.',
      }),
    ),
    updatedSince: UpdatedSince('candidates'),
  },
  { additionalProperties: false },
);
export type CandidateListQuery = Static<typeof CandidateListQuery>;

/**
 * A résumé sent with a candidate (an import row) or an application (submit): stored by the
 * documents module as the candidate's RESUME file, with that module's checks.
 */
export const ResumeInput = Type.Object(
  {
    fileName: Type.String({ minLength: 1, maxLength: 1000, description: 'Kept without any path or control characters, at most 255 characters' }),
    contentBase64: Type.Optional(Type.String({ minLength: 1, description: 'The file, base64. Exactly one of contentBase64 and url.' })),
    url: Type.Optional(
      Type.String({ format: 'uri', maxLength: 2000, description: 'An https URL the server fetches (as for candidate files). Exactly one of contentBase64 and url.' }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "The candidate's résumé, stored as their file of kind RESUME (`GET /candidates/{id}/files`) with the checks of `POST /candidates/{id}/files`: the type decided from the bytes (415), FILE_MAX_BYTES (413), bad base64 or a refused URL (422). A refused résumé refuses the whole request.",
  },
);
export type ResumeInput = Static<typeof ResumeInput>;

/** At most this many rows of one import carry a résumé (each is fetched or decoded before the import's transaction). */
export const MAX_IMPORT_RESUMES = 20;

export const CandidateInput = Type.Object(
  {
    firstName: Type.String({ minLength: 1, maxLength: 100 }),
    lastName: Type.String({ minLength: 1, maxLength: 100 }),
    email: Email,
    phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
    headline: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    location: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    skills: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
    // http and https only: a javascript: or data: link would run in whoever opens it.
    links: Type.Optional(
      Type.Array(Type.String({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', maxLength: 2000, description: 'An http or https URL' }), {
        maxItems: 20,
      }),
    ),
    resume: Type.Optional(ResumeInput),
  },
  { additionalProperties: false },
);
export type CandidateInput = Static<typeof CandidateInput>;

export const ImportCandidatesBody = Type.Object(
  {
    jobListingId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "Adds every imported candidate to this ACTIVE listing's pipeline (application source IMPORTED)",
      }),
    ),
    candidates: Type.Array(CandidateInput, { minItems: 1, maxItems: MAX_IMPORT_ROWS }),
  },
  { additionalProperties: false },
);
export type ImportCandidatesBody = Static<typeof ImportCandidatesBody>;

export const ImportResult = Type.Object(
  {
    created: Type.Integer({ description: 'Candidates created' }),
    updated: Type.Integer({ description: 'Existing candidates (matched by email) updated' }),
    applicationsCreated: Type.Integer({ description: 'Applications added to the pipeline of jobListingId' }),
    results: Type.Array(
      Type.Object({
        index: Type.Integer({ description: 'Position of the row in the request' }),
        candidateId: Type.String({ format: 'uuid' }),
        email: Type.String(),
        result: Type.Enum(['created', 'updated']),
        applicationId: Nullable(
          Type.String({ format: 'uuid', description: 'With jobListingId: the application to that listing' }),
        ),
        applicationResult: Nullable(
          Type.Enum(['created', 'existing'], {
            description: 'With jobListingId: whether the application was added now or already existed',
          }),
        ),
        resumeFileId: Type.Optional(
          Nullable(Type.String({ format: 'uuid', description: "With the row's resume: the candidate file it was stored as" })),
        ),
      }),
      { description: 'One entry per request row, in request order' },
    ),
  },
  { $id: 'CandidateImportResult' },
);

