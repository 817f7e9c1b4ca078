// Request and response schemas of the job listing endpoints. They validate, serialize and become
// the OpenAPI document, so every field carries its documentation here.
import { Type, type Static, type TSchema } from 'typebox';
import { PageQuery, UpdatedSince } from '../../http/pagination.ts';
import { COUNTRY_CODES } from '../reference-data/countries.ts';
import { JOB_LISTING_STATUSES, POSITION_TYPES, WORK_PLACE_TYPES } from '../reference-data/enums.ts';
import {
  DRIVING_CLASSES,
  EDUCATION_LEVELS,
  EXPERT_TYPES,
  LANGUAGE_PROFICIENCIES,
  PAYMENT_INTERVALS,
  SALARY_TYPES,
  SKILL_TYPES,
  TRANSLATION_TYPES,
} from './listing-values.ts';

const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

/** A BCP 47 language tag such as `en`, `de`, `pt-BR`, `zh-Hant` (checked again in the service). */
export const LANGUAGE_TAG_PATTERN = '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$';
/** RFC 5646 4.4.1: 35 characters hold any tag in practical use; longer ones are junk or attacks. */
export const LANGUAGE_TAG_MAX_LENGTH = 35;

// ---------------------------------------------------------------------------------------------
// Response: the full job listing

export const TranslatedText = Type.Object(
  {
    value: Type.String({
      description:
        'The text in the language of the response (`Content-Language`): its translation when one exists, else the original.',
    }),
    original: Type.String({ description: 'The text as originally written, in `sourceLanguage`.' }),
    sourceLanguage: Type.String({ description: 'BCP 47 tag of the language the text was written in.' }),
    translated: Type.Boolean({ description: 'Whether `value` is a translation (false: `value` is the original).' }),
    translationType: nullable(Type.Enum(TRANSLATION_TYPES), 
      'How the translation was made: HUMAN (given through PUT .../translations/{lang}) or AI (made by the configured machine-translation service). null when `translated` is false.',
    ),
  },
  { description: 'A translatable text: the value in the requested language plus the original it comes from.' },
);

const Address = Type.Object(
  {
    street: nullable(Type.String()),
    city: nullable(Type.String()),
    state: nullable(Type.String({ description: 'State, province or region' })),
    country: nullable(Type.String({ description: 'ISO 3166-1 alpha-2 country code, e.g. DE' })),
    postalCode: nullable(Type.String()),
    latitude: nullable(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: nullable(Type.Number({ minimum: -180, maximum: 180 })),
  },
  { description: 'Where the job is done.' },
);

const Skill = Type.Object({
  value: TranslatedText,
  type: nullable(Type.Enum(SKILL_TYPES), 'Kind of skill'),
  expertType: nullable(Type.Enum(EXPERT_TYPES), 'Level of expertise expected'),
  languageProficiency: nullable(Type.Enum(LANGUAGE_PROFICIENCIES), 'For a LANGUAGE skill: the CEFR level (or NATIVE)'),
  drivingClass: nullable(Type.Enum(DRIVING_CLASSES), 'For a DRIVING_LICENSE skill: the EU licence category'),
});

const HiringProcessStep = Type.Object({
  id: Type.String({ format: 'uuid' }),
  jobListingId: Type.String({ format: 'uuid' }),
  stepOrder: Type.Integer({ description: 'Position of the step in the process, from 1' }),
  stepName: TranslatedText,
  description: nullable(TranslatedText),
});

const JobListingTag = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Id of the link' }),
  jobListingId: Type.String({ format: 'uuid' }),
  tagId: Type.String({ format: 'uuid', description: 'Id from GET /public/v1/tags' }),
});

const JobListingRequirement = Type.Object({
  id: Type.String({ format: 'uuid' }),
  jobListingId: Type.String({ format: 'uuid' }),
  requirementText: Type.String(),
});

const timestamp = (description: string) => Type.String({ format: 'date-time', description });

export const JobListing = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    companyId: Type.String({ format: 'uuid' }),
    status: Type.Enum(JOB_LISTING_STATUSES, { description: 'Lifecycle state; see the job listings tag for the moves.' }),
    sectorId: nullable(Type.String({ format: 'uuid' }), 'Id from GET /public/v1/sectors'),
    position: TranslatedText,
    positionType: Type.Enum(POSITION_TYPES),
    workPlaceType: Type.Enum(WORK_PLACE_TYPES),
    address: nullable(Address),
    isStartDate: nullable(Type.Boolean({ description: 'Whether the job has a fixed start date (startDate)' })),
    startDate: nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD' })),
    jobDescription: nullable(TranslatedText),
    requirementsSummary: nullable(TranslatedText),
    personalQualitiesSummary: nullable(TranslatedText),
    skills: Type.Array(Skill),
    currency: nullable(Type.String({ description: 'ISO 4217 currency code of the salary, e.g. EUR' })),
    salaryBase: nullable(Type.Number({ description: 'Salary, or the lower end of the salary range' })),
    isSalaryMax: nullable(Type.Boolean({ description: 'Whether salaryMax (a range) is given' })),
    salaryMax: nullable(Type.Number({ description: 'Upper end of the salary range, >= salaryBase' })),
    salaryType: nullable(Type.Enum(SALARY_TYPES)),
    paymentInterval: nullable(Type.Enum(PAYMENT_INTERVALS)),
    salaryDescription: nullable(TranslatedText),
    benefits: Type.Array(TranslatedText),
    educationLevel: nullable(Type.Enum(EDUCATION_LEVELS)),
    fieldOfStudy: nullable(TranslatedText),
    yearsOfExperience: nullable(Type.Integer()),
    availableForEveryCountry: nullable(Type.Boolean({ description: 'Whether candidates from any country may apply' })),
    numberOfPositionsOpened: nullable(Type.Integer()),
    jobListingEndDate: nullable(
      Type.String({ format: 'date', description: 'Last day the listing runs (UTC); sets expiresAt to the end of that day' }),
    ),
    referenceNumber: nullable(Type.String({ description: 'The company\'s own reference for the listing' })),
    hiringProcessSteps: Type.Array(HiringProcessStep),
    jobListingTags: Type.Array(JobListingTag),
    jobListingRequirements: Type.Array(JobListingRequirement),
    rejectionReason: nullable(
      Type.String(),
      'Why a reviewer sent the listing back to DRAFT (companies that require listing review); null otherwise. Cleared on the next publish.',
    ),
    createdAt: timestamp('When the listing was created'),
    updatedAt: timestamp('Last change to the listing (fields, status or translations)'),
    publishedAt: nullable(timestamp('When the listing first became ACTIVE; never changes afterwards')),
    expiresAt: nullable(
      timestamp(
        'When an ACTIVE listing closes by itself: the end (23:59:59.999 UTC) of jobListingEndDate when set, else 60 days after it was (re)published',
      ),
    ),
    closedAt: nullable(timestamp('When the listing was last closed (by hand or on expiry); null while not CLOSED')),
  },
  { $id: 'JobListing', title: 'JobListing', description: 'A job listing, with its texts in the language of the response.' },
);

export type JobListingView = Static<typeof JobListing>;
export type TranslatedTextView = Static<typeof TranslatedText>;

export const JobListingListItem = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: Type.Enum(JOB_LISTING_STATUSES),
    position: Type.Object(
      {
        value: Type.String({ description: 'The position in the language of the response, else the original' }),
        translated: Type.Boolean({ description: 'Whether value is a translation' }),
      },
      { description: 'In lists the position carries only value and translated.' },
    ),
    positionType: Type.Enum(POSITION_TYPES),
    workPlaceType: Type.Enum(WORK_PLACE_TYPES),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({
      format: 'date-time',
      description: 'Last change to the listing, as on the full listing: what `updatedSince` compares',
    }),
  },
  { $id: 'JobListingListItem', title: 'JobListingListItem' },
);

export type JobListingListItemView = Static<typeof JobListingListItem>;

// ---------------------------------------------------------------------------------------------
// Requests

const text = (max: number, description?: string) =>
  Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });

const AddressInput = Type.Object(
  {
    street: Type.Optional(nullable(Type.String({ maxLength: 300 }))),
    city: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
    state: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
    country: Type.Optional(nullable(Type.Enum(COUNTRY_CODES, { description: 'ISO 3166-1 alpha-2 code (upper case), e.g. DE' }))),
    postalCode: Type.Optional(nullable(Type.String({ maxLength: 20 }))),
    latitude: Type.Optional(nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    longitude: Type.Optional(nullable(Type.Number({ minimum: -180, maximum: 180 }))),
  },
  { additionalProperties: false },
);

// An object-or-null written as one schema (type: [object, null]) rather than anyOf: a mistake
// inside the address is then reported once, at its own field (address.country), not also as
// "address must be null" from the other branch.
const NullableAddressInput = Type.Unsafe<Static<typeof AddressInput> | null>({
  ...AddressInput,
  type: ['object', 'null'],
  description: 'Parts given replace the stored ones (merge on PATCH); null removes the whole address.',
});

const SkillInput = Type.Object(
  {
    value: text(200, 'The skill, in the listing\'s language'),
    type: Type.Optional(nullable(Type.Enum(SKILL_TYPES))),
    expertType: Type.Optional(nullable(Type.Enum(EXPERT_TYPES))),
    languageProficiency: Type.Optional(nullable(Type.Enum(LANGUAGE_PROFICIENCIES))),
    drivingClass: Type.Optional(nullable(Type.Enum(DRIVING_CLASSES))),
  },
  { additionalProperties: false },
);

const HiringStepInput = Type.Object(
  {
    stepOrder: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Defaults to the place in the array, from 1' })),
    stepName: text(200),
    description: Type.Optional(nullable(Type.String({ maxLength: 5000 }))),
  },
  { additionalProperties: false },
);

const TagLinkInput = Type.Object(
  { tagId: Type.String({ format: 'uuid', description: 'Id from GET /public/v1/tags' }) },
  { additionalProperties: false },
);

const RequirementInput = Type.Object(
  { requirementText: text(1000) },
  { additionalProperties: false },
);

/** Fields a caller may set, on create and on PATCH. */
const writableFields = {
  sectorId: Type.Optional(nullable(Type.String({ format: 'uuid' }), 'Id from GET /public/v1/sectors')),
  address: Type.Optional(NullableAddressInput),
  isStartDate: Type.Optional(nullable(Type.Boolean())),
  startDate: Type.Optional(nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD' }))),
  jobDescription: Type.Optional(nullable(Type.String({ maxLength: 20000 }))),
  requirementsSummary: Type.Optional(nullable(Type.String({ maxLength: 10000 }))),
  personalQualitiesSummary: Type.Optional(nullable(Type.String({ maxLength: 10000 }))),
  skills: Type.Optional(Type.Array(SkillInput, { maxItems: 100 })),
  currency: Type.Optional(nullable(Type.String({ description: 'ISO 4217 code, e.g. EUR (case-insensitive)' }))),
  salaryBase: Type.Optional(nullable(Type.Number({ minimum: 0, maximum: 1e12 }))),
  isSalaryMax: Type.Optional(nullable(Type.Boolean())),
  salaryMax: Type.Optional(nullable(Type.Number({ minimum: 0, maximum: 1e12, description: 'Must be >= salaryBase' }))),
  salaryType: Type.Optional(nullable(Type.Enum(SALARY_TYPES))),
  paymentInterval: Type.Optional(nullable(Type.Enum(PAYMENT_INTERVALS))),
  salaryDescription: Type.Optional(nullable(Type.String({ maxLength: 2000 }))),
  benefits: Type.Optional(Type.Array(text(500), { maxItems: 50, description: 'Plain strings in the listing\'s language' })),
  educationLevel: Type.Optional(nullable(Type.Enum(EDUCATION_LEVELS))),
  fieldOfStudy: Type.Optional(nullable(Type.String({ maxLength: 300 }))),
  yearsOfExperience: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: 70 }))),
  availableForEveryCountry: Type.Optional(nullable(Type.Boolean())),
  numberOfPositionsOpened: Type.Optional(nullable(Type.Integer({ minimum: 1, maximum: 100000 }))),
  jobListingEndDate: Type.Optional(nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD, last day the listing runs (UTC)' }))),
  referenceNumber: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
  hiringProcessSteps: Type.Optional(Type.Array(HiringStepInput, { maxItems: 50, description: 'Replaces the whole list (new ids)' })),
  jobListingTags: Type.Optional(Type.Array(TagLinkInput, { maxItems: 100, description: 'Replaces the whole list' })),
  jobListingRequirements: Type.Optional(Type.Array(RequirementInput, { maxItems: 100, description: 'Replaces the whole list (new ids)' })),
};

export const CreateJobListingBody = Type.Object(
  {
    position: text(300, 'The position, as a plain string in `language`'),
    positionType: Type.Enum(POSITION_TYPES),
    workPlaceType: Type.Enum(WORK_PLACE_TYPES),
    language: Type.Optional(
      Type.String({
        pattern: LANGUAGE_TAG_PATTERN,
        maxLength: LANGUAGE_TAG_MAX_LENGTH,
        description: "BCP 47 tag of the language the texts are written in; default: the company's default language (en unless set)",
      }),
    ),
    ...writableFields,
  },
  {
    additionalProperties: false,
    description: 'Texts (position, jobDescription, benefits...) are plain strings in `language`. Unknown fields: 422.',
  },
);

export type CreateJobListingInput = Static<typeof CreateJobListingBody>;

export const UpdateJobListingBody = Type.Object(
  {
    position: Type.Optional(text(300)),
    positionType: Type.Optional(Type.Enum(POSITION_TYPES)),
    workPlaceType: Type.Optional(Type.Enum(WORK_PLACE_TYPES)),
    ...writableFields,
  },
  {
    additionalProperties: false,
    description:
      'Merge patch: fields left out keep their value, null clears a field, arrays replace the whole list. Texts are plain strings in the listing\'s source language (use PUT .../translations/{lang} for other languages). The source language itself cannot change.',
  },
);

export type UpdateJobListingInput = Static<typeof UpdateJobListingBody>;

export const PutTranslationBody = Type.Object(
  {
    position: Type.Optional(text(300)),
    jobDescription: Type.Optional(text(20000)),
    requirementsSummary: Type.Optional(text(10000)),
    personalQualitiesSummary: Type.Optional(text(10000)),
    salaryDescription: Type.Optional(text(2000)),
    fieldOfStudy: Type.Optional(text(300)),
    benefits: Type.Optional(
      Type.Array(text(500), { maxItems: 50, description: "One per benefit, in the listing's order (same length)" }),
    ),
    skills: Type.Optional(Type.Array(text(200), { maxItems: 100, description: "One per skill value, in the listing's order (same length)" })),
    hiringProcessSteps: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String({ format: 'uuid', description: 'Id of one of the listing\'s hiring process steps' }),
            stepName: Type.Optional(text(200)),
            description: Type.Optional(text(5000)),
          },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'A HUMAN translation of the listing\'s texts into {lang}. It replaces any earlier human translation into that language: texts left out have none afterwards. A text can only be translated if the listing has it. A human translation always wins over a machine (AI) one.',
  },
);

export type PutTranslationInput = Static<typeof PutTranslationBody>;

export const ListJobListingsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(
      Type.Array(Type.Enum(JOB_LISTING_STATUSES), {
        description:
          'Only listings in these states; repeat the parameter for several (`?status=ACTIVE&status=CLOSED`). Without it every state but ARCHIVED is listed.',
      }),
    ),
    workPlaceType: Type.Optional(
      Type.Array(Type.Enum(WORK_PLACE_TYPES), {
        description: 'Only listings of these work place types; repeat the parameter for several (`?workPlaceType=REMOTE&workPlaceType=HYBRID`).',
      }),
    ),
    positionType: Type.Optional(
      Type.Array(Type.Enum(POSITION_TYPES), {
        description: 'Only listings of these position types; repeat the parameter for several (`?positionType=FULL_TIME&positionType=PART_TIME`).',
      }),
    ),
    updatedSince: UpdatedSince('listings'),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Only listings whose position contains this text (case-insensitive, leading and trailing spaces ignored), as written or in any of its stored translations. `%` and `_` are plain characters.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ListingIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const RejectListingBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 2000, description: 'Shown on the listing (rejectionReason) until it is published again' }) },
  { additionalProperties: false },
);

export const TranslationParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  lang: Type.String({ pattern: LANGUAGE_TAG_PATTERN, maxLength: LANGUAGE_TAG_MAX_LENGTH, description: 'BCP 47 tag of the translation, e.g. de or pt-BR' }),
});

export const ListingTranslationsResponse = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        language: Type.String({ description: 'BCP 47 tag of the language the listing has translations in' }),
        translationType: Type.Enum(TRANSLATION_TYPES, {
          description: 'HUMAN when any text has a human translation into this language (a human one wins when reading), else AI.',
        }),
        updatedAt: Type.String({ format: 'date-time', description: 'When the latest translation into this language was stored' }),
      }),
      { description: 'One entry per language, sorted by language tag' },
    ),
  },
  { description: "The languages the listing's current texts are translated into" },
);

export type ListingTranslationsView = Static<typeof ListingTranslationsResponse>;

export const jobListingSchemas = [JobListing, JobListingListItem];
