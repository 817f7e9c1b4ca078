// The properties Google's job search requires of a schema.org JobPosting, each with its type:
// title (text), description (HTML text, not the title), datePosted (ISO 8601 date), hiringOrganization
// (Organization with a name), and jobLocation (Place with a PostalAddress) -- or, for a remote job,
// jobLocationType TELECOMMUTE with applicantLocationRequirements (Country or State with a name).
// Recommended ones, when present, are checked for their type too.
import { expect } from 'vitest';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const EMPLOYMENT_TYPES = ['FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN', 'VOLUNTEER', 'PER_DIEM', 'OTHER'];
const UNITS = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function assertGoogleJobPosting(posting: Json): void {
  expect(posting['@context']).toMatch(/^https?:\/\/schema\.org\/?$/);
  expect(posting['@type']).toBe('JobPosting');
  // Required.
  expect(typeof posting.title === 'string' && posting.title.trim().length > 0, 'title').toBe(true);
  expect(typeof posting.description === 'string' && posting.description.trim().length > 0, 'description').toBe(true);
  expect(posting.description, 'description is not the title').not.toBe(posting.title);
  expect(String(posting.datePosted), 'datePosted').toMatch(ISO_DATE);
  const organization = posting.hiringOrganization;
  expect(isObject(organization) && organization['@type'] === 'Organization' && typeof organization.name === 'string' && organization.name !== '', 'hiringOrganization').toBe(true);
  const remote = posting.jobLocationType === 'TELECOMMUTE';
  const place = posting.jobLocation;
  const hasPlace = isObject(place) && place['@type'] === 'Place' && isObject(place.address) && place.address['@type'] === 'PostalAddress';
  if (hasPlace) {
    const address = (place as Json).address as Json;
    expect(Object.keys(address).some((key) => key !== '@type'), 'jobLocation.address has a field').toBe(true);
    if (address.addressCountry !== undefined) expect(String(address.addressCountry)).toMatch(/^[A-Z]{2}$/);
  } else {
    expect(remote, 'jobLocation, or jobLocationType TELECOMMUTE').toBe(true);
  }
  if (remote && !hasPlace) {
    const requirement = posting.applicantLocationRequirements;
    expect(isObject(requirement) && ['Country', 'State'].includes(String(requirement['@type'])) && typeof requirement.name === 'string', 'applicantLocationRequirements').toBe(true);
  }
  // Recommended, when given.
  if (posting.validThrough !== undefined) expect(String(posting.validThrough), 'validThrough').toMatch(ISO_DATE);
  if (posting.employmentType !== undefined) {
    const types = Array.isArray(posting.employmentType) ? posting.employmentType : [posting.employmentType];
    for (const type of types) expect(EMPLOYMENT_TYPES, 'employmentType').toContain(type);
  }
  if (posting.identifier !== undefined) {
    const identifier = posting.identifier as Json;
    expect(identifier['@type'], 'identifier').toBe('PropertyValue');
    expect(typeof identifier.value, 'identifier.value').toBe('string');
  }
  if (posting.baseSalary !== undefined) {
    const salary = posting.baseSalary as Json;
    expect(salary['@type'], 'baseSalary').toBe('MonetaryAmount');
    expect(String(salary.currency), 'baseSalary.currency').toMatch(/^[A-Z]{3}$/);
    const value = salary.value as Json;
    expect(value['@type'], 'baseSalary.value').toBe('QuantitativeValue');
    expect(typeof value.value === 'number' || (typeof value.minValue === 'number' && typeof value.maxValue === 'number'), 'baseSalary amount').toBe(true);
    expect(UNITS, 'baseSalary.value.unitText').toContain(value.unitText);
  }
}
