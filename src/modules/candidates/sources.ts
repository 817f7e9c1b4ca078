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
  // Sent through this service's own job board or careers pages (boards module); CAREER_SITE stays
  // for integrators who report applications from a careers site of their own.
  'CAREERS_PAGE',
] as const;
