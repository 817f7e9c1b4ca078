// Validation of a listing's fields beyond the schema (references, currency, salary range, unique
// step orders), and the child rows a create or update writes. Each problem is one `details` entry.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { ErrorDetail } from '../../shared/errors.ts';
import { normalizeLanguageTag } from '../../shared/language-tags.ts';
import { knownSectorIds, knownTagIds } from '../reference-data/service.ts';
import { normalizeCurrency } from './currencies.ts';
import type { ListingChildren } from './repo.ts';
import type { UpdateJobListingInput } from './schemas.ts';
import type { JobListingRow } from './view.ts';

/** The listing's source language as given (normalised), or a detail when it is not a tag. */
export function validateLanguage(given: string | undefined, details: ErrorDetail[]): string | undefined {
  if (given === undefined) return undefined;
  const language = normalizeLanguageTag(given);
  if (!language) details.push({ field: 'language', message: 'must be a BCP 47 language tag such as en or pt-BR' });
  return language;
}

type WritableInput = Omit<UpdateJobListingInput, never>;

/** Checks what the schema cannot (references, currency, salary range) and returns the row fields. */
export async function validateFields(
  db: Db,
  input: WritableInput,
  current: JobListingRow | undefined,
  details: ErrorDetail[],
): Promise<Partial<JobListingRow>> {
  const fields: Partial<JobListingRow> = {};
  const copy = <K extends keyof WritableInput & keyof JobListingRow>(key: K) => {
    if (input[key] !== undefined) (fields as Record<string, unknown>)[key] = input[key];
  };
  for (const key of [
    'position',
    'positionType',
    'workPlaceType',
    'sectorId',
    'isStartDate',
    'startDate',
    'jobDescription',
    'requirementsSummary',
    'personalQualitiesSummary',
    'salaryBase',
    'isSalaryMax',
    'salaryMax',
    'salaryType',
    'paymentInterval',
    'salaryDescription',
    'educationLevel',
    'fieldOfStudy',
    'yearsOfExperience',
    'availableForEveryCountry',
    'numberOfPositionsOpened',
    'jobListingEndDate',
    'referenceNumber',
  ] as const) {
    copy(key);
  }

  if (typeof input.position === 'string' && input.position.trim() === '') {
    details.push({ field: 'position', message: 'must not be blank' });
  }

  if (input.sectorId) {
    const found = await knownSectorIds(db, [input.sectorId]);
    if (!found.has(input.sectorId)) details.push({ field: 'sectorId', message: 'is not a known sector id (see GET /public/v1/sectors)' });
  }

  if (input.jobListingTags) {
    const ids = input.jobListingTags.map((link) => link.tagId);
    const found = await knownTagIds(db, ids);
    const seen = new Set<string>();
    ids.forEach((tagId, index) => {
      const field = `jobListingTags[${index}].tagId`;
      if (!found.has(tagId)) details.push({ field, message: 'is not a known tag id (see GET /public/v1/tags)' });
      else if (seen.has(tagId)) details.push({ field, message: 'is listed twice' });
      seen.add(tagId);
    });
  }

  if (input.hiringProcessSteps) {
    const orders = new Set<number>();
    input.hiringProcessSteps.forEach((step, index) => {
      const order = step.stepOrder ?? index + 1;
      if (orders.has(order)) details.push({ field: `hiringProcessSteps[${index}].stepOrder`, message: `${order} is used twice` });
      orders.add(order);
    });
  }

  if (input.currency !== undefined) {
    if (input.currency === null) fields.currency = null;
    else {
      const code = normalizeCurrency(input.currency);
      if (code) fields.currency = code;
      else details.push({ field: 'currency', message: 'must be an ISO 4217 currency code, e.g. EUR' });
    }
  }

  if (input.address !== undefined) {
    const address = input.address;
    // Merge: an address object changes the parts it names; null removes the whole address.
    const part = <T>(value: T | null | undefined, existing: T | null | undefined): T | null =>
      address === null ? null : value !== undefined ? value : (existing ?? null);
    fields.addressStreet = part(address?.street, current?.addressStreet);
    fields.addressCity = part(address?.city, current?.addressCity);
    fields.addressState = part(address?.state, current?.addressState);
    fields.addressCountry = part(address?.country, current?.addressCountry);
    fields.addressPostalCode = part(address?.postalCode, current?.addressPostalCode);
    fields.addressLatitude = part(address?.latitude, current?.addressLatitude);
    fields.addressLongitude = part(address?.longitude, current?.addressLongitude);
  }

  const salaryBase = fields.salaryBase !== undefined ? fields.salaryBase : (current?.salaryBase ?? null);
  const salaryMax = fields.salaryMax !== undefined ? fields.salaryMax : (current?.salaryMax ?? null);
  if (salaryBase !== null && salaryMax !== null && salaryMax < salaryBase) {
    details.push({ field: 'salaryMax', message: 'must be greater than or equal to salaryBase' });
  }
  return fields;
}

export function childrenFromInput(listingId: string, input: WritableInput): Partial<ListingChildren> {
  const children: Partial<ListingChildren> = {};
  if (input.skills) {
    children.skills = input.skills.map((skill, index) => ({
      id: randomUUID(),
      jobListingId: listingId,
      sortOrder: index,
      value: skill.value,
      type: skill.type ?? null,
      expertType: skill.expertType ?? null,
      languageProficiency: skill.languageProficiency ?? null,
      drivingClass: skill.drivingClass ?? null,
    }));
  }
  if (input.benefits) {
    children.benefits = input.benefits.map((value, index) => ({ id: randomUUID(), jobListingId: listingId, sortOrder: index, value }));
  }
  if (input.hiringProcessSteps) {
    children.hiringSteps = input.hiringProcessSteps.map((step, index) => ({
      id: randomUUID(),
      jobListingId: listingId,
      stepOrder: step.stepOrder ?? index + 1,
      stepName: step.stepName,
      description: step.description ?? null,
    }));
  }
  if (input.jobListingTags) {
    children.tags = input.jobListingTags.map((link) => ({ id: randomUUID(), jobListingId: listingId, tagId: link.tagId }));
  }
  if (input.jobListingRequirements) {
    children.requirements = input.jobListingRequirements.map((requirement, index) => ({
      id: randomUUID(),
      jobListingId: listingId,
      sortOrder: index,
      requirementText: requirement.requirementText,
    }));
  }
  return children;
}
