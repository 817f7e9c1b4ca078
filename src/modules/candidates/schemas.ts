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
          'Full-text search over name, email, headline and skills. Every word must match, as a word or the start of one ("jav" finds "Java"). Results: the newest 500 matches ordered by relevance, then the older matches newest first; totalElements counts every match.',
      }),
    ),
    updatedSince: UpdatedSince('candidates'),
  },
  { additionalProperties: false },
);
export type CandidateListQuery = Static<typeof CandidateListQuery>;

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
      }),
      { description: 'One entry per request row, in request order' },
    ),
  },
  { $id: 'CandidateImportResult' },
);

