// How a candidate (and an application) reaches a company. Owned here because a candidate's source
// is the source of whatever brought them in; applications/stages.ts uses the same list.

export const CANDIDATE_SOURCES = [
  'EXTERNAL',
  'INTERNAL',
  'REFERRAL',
  'AGENCY',
  'JOB_BOARD',
  'CAREER_SITE',
  'IMPORTED',
] as const;
