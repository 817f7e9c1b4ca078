// What the details form sends: the whole listing on create, only what changed on edit, typed
// against the SDK's request bodies so a change to the contract fails the dashboard's build.
import type { RequestBody } from '../../api';
import type { Country, Form, LineForm } from './form';

type CreateBody = RequestBody<'/public/v1/job-listings', 'post'>;
type UpdateBody = RequestBody<'/public/v1/job-listings/{id}', 'patch'>;

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const numberOrNull = (value: number | string) => (value === '' || value === null ? null : Number(value));
const lines = (rows: LineForm[]) => rows.map((row) => row.text.trim()).filter(Boolean);

/** Every field but the language (set on create only). */
function fieldsOf(form: Form) {
  const address = {
    street: orNull(form.street),
    city: orNull(form.city),
    state: orNull(form.state),
    postalCode: orNull(form.postalCode),
    // The person types the code; the server refuses one that is not ISO 3166 (422 naming `address.country`).
    country: orNull(form.country.toUpperCase()) as Country | null,
    latitude: numberOrNull(form.latitude),
    longitude: numberOrNull(form.longitude),
  };
  return {
    position: form.position.trim(),
    positionType: form.positionType,
    workPlaceType: form.workPlaceType,
    sectorId: form.sectorId,
    jobListingTags: form.tagIds.map((tagId) => ({ tagId })),
    address: Object.values(address).some((value) => value !== null) ? address : null,
    isStartDate: form.startDate ? true : null,
    startDate: orNull(form.startDate),
    jobDescription: orNull(form.jobDescription),
    requirementsSummary: orNull(form.requirementsSummary),
    personalQualitiesSummary: orNull(form.personalQualitiesSummary),
    skills: form.skills
      .filter((skill) => skill.value.trim())
      .map((skill) => ({
        value: skill.value.trim(),
        type: skill.type,
        expertType: skill.expertType,
        languageProficiency: skill.type === 'LANGUAGE' ? skill.languageProficiency : null,
        drivingClass: skill.type === 'DRIVING_LICENSE' ? skill.drivingClass : null,
      })),
    currency: orNull(form.currency),
    salaryBase: numberOrNull(form.salaryBase),
    isSalaryMax: form.salaryMax === '' ? null : true,
    salaryMax: numberOrNull(form.salaryMax),
    salaryType: form.salaryType,
    paymentInterval: form.paymentInterval,
    salaryDescription: orNull(form.salaryDescription),
    benefits: lines(form.benefits),
    educationLevel: form.educationLevel,
    fieldOfStudy: orNull(form.fieldOfStudy),
    yearsOfExperience: numberOrNull(form.yearsOfExperience),
    numberOfPositionsOpened: numberOrNull(form.numberOfPositionsOpened),
    availableForEveryCountry: form.availableForEveryCountry,
    jobListingEndDate: orNull(form.jobListingEndDate),
    referenceNumber: orNull(form.referenceNumber),
    hiringProcessSteps: form.steps
      .filter((step) => step.stepName.trim())
      .map((step, index) => ({ stepOrder: index + 1, stepName: step.stepName.trim(), description: orNull(step.description) })),
    jobListingRequirements: lines(form.requirements).map((requirementText) => ({ requirementText })),
  } satisfies CreateBody & UpdateBody;
}

export function createBody(form: Form): CreateBody {
  const language = form.language.trim();
  return language ? { ...fieldsOf(form), language } : fieldsOf(form);
}

const copy = <T, K extends keyof T>(from: T, to: Partial<T>, key: K) => {
  to[key] = from[key];
};

/** Only what changed since the listing was loaded: an unchanged text keeps its translations. */
export function updateBody(form: Form, before: Form): UpdateBody {
  const now = fieldsOf(form);
  const then = fieldsOf(before);
  const changed: Partial<typeof now> = {};
  for (const key of Object.keys(now) as Array<keyof typeof now>) {
    if (JSON.stringify(now[key]) !== JSON.stringify(then[key])) copy(now, changed, key);
  }
  return changed;
}
