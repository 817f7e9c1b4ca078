// The contract's enumerations: the single source for validation, storage checks and GET /enums.
export const POSITION_TYPES = ['FULL_TIME', 'PART_TIME', 'CONTRACT', 'SELF_EMPLOYED', 'INTERNSHIP'] as const;
export const WORK_PLACE_TYPES = ['REMOTE', 'ON_SITE', 'HYBRID'] as const;
export const JOB_LISTING_STATUSES = ['DRAFT', 'ACTIVE', 'UNDER_REVIEW', 'CLOSED', 'ARCHIVED'] as const;

export type PositionType = (typeof POSITION_TYPES)[number];
export type WorkPlaceType = (typeof WORK_PLACE_TYPES)[number];
export type JobListingStatus = (typeof JOB_LISTING_STATUSES)[number];
