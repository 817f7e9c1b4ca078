// schema.org JobPosting for a listing page, as Google's job search reads it. Required there:
// title, description (HTML), datePosted, hiringOrganization, and jobLocation -- or, for a fully
// remote job, jobLocationType TELECOMMUTE with applicantLocationRequirements. Recommended:
// validThrough, employmentType, baseSalary, identifier, directApply. Pure.
import type { CareersBoard, CareersJob, CareersUrls } from './model.ts';
import { escapeHtml, paragraphsHtml } from './html.ts';

/** PositionType -> Google's employmentType values. */
const EMPLOYMENT_TYPES: Record<CareersJob['positionType'], string> = {
  FULL_TIME: 'FULL_TIME',
  PART_TIME: 'PART_TIME',
  CONTRACT: 'CONTRACTOR',
  SELF_EMPLOYED: 'CONTRACTOR',
  INTERNSHIP: 'INTERN',
};

/** paymentInterval -> QuantitativeValue.unitText. */
const SALARY_UNITS: Record<string, string> = { HOURLY: 'HOUR', DAILY: 'DAY', WEEKLY: 'WEEK', MONTHLY: 'MONTH', YEARLY: 'YEAR' };

function absolute(url: string | undefined, base: string): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url, `${base}/`).href;
  } catch {
    return undefined;
  }
}

function postalAddress(job: CareersJob): Record<string, string> | undefined {
  const a = job.address;
  if (!a || !(a.city || a.country || a.street || a.postalCode || a.state)) return undefined;
  const address: Record<string, string> = { '@type': 'PostalAddress' };
  if (a.street) address.streetAddress = a.street;
  if (a.city) address.addressLocality = a.city;
  if (a.state) address.addressRegion = a.state;
  if (a.postalCode) address.postalCode = a.postalCode;
  if (a.country) address.addressCountry = a.country;
  return address;
}

/** The description as the HTML Google wants (p, ul, li), every text escaped. */
function descriptionHtml(job: CareersJob): string {
  const parts = [paragraphsHtml(job.description)];
  if (job.requirementsSummary) parts.push(paragraphsHtml(job.requirementsSummary));
  if (job.personalQualitiesSummary) parts.push(paragraphsHtml(job.personalQualitiesSummary));
  if (job.skills.length > 0) parts.push(`<ul>${job.skills.map((skill) => `<li>${escapeHtml(skill)}</li>`).join('')}</ul>`);
  if (job.benefits.length > 0) parts.push(`<ul>${job.benefits.map((benefit) => `<li>${escapeHtml(benefit)}</li>`).join('')}</ul>`);
  return parts.join('');
}

/**
 * The JobPosting of a listing, or undefined when the listing says too little for Google to take it
 * (no address for a job on site, no country for a remote one): no markup rather than markup Google
 * reports as invalid.
 */
export function jobPosting(job: CareersJob, board: CareersBoard, urls: CareersUrls): Record<string, unknown> | undefined {
  const posting: Record<string, unknown> = {
    '@context': 'https://schema.org/',
    '@type': 'JobPosting',
    title: job.title,
    description: descriptionHtml(job),
    datePosted: job.publishedAt,
    employmentType: EMPLOYMENT_TYPES[job.positionType],
    hiringOrganization: {
      '@type': 'Organization',
      name: board.name,
      sameAs: urls.board(board.slug),
      ...(board.logoUrl ? { logo: absolute(board.logoUrl, urls.base) } : {}),
    },
    identifier: { '@type': 'PropertyValue', name: board.name, value: job.id },
    url: urls.job(board.slug, job.id),
    directApply: true,
  };
  if (job.language) posting.inLanguage = job.language;
  if (job.validThrough) posting.validThrough = job.validThrough;
  const address = postalAddress(job);
  if (job.workPlaceType === 'REMOTE') {
    posting.jobLocationType = 'TELECOMMUTE';
    // Google: a remote job names the countries applicants may live in; "anywhere" is not a value,
    // so a listing open to every country names none and leaves the choice to the description.
    if (!job.availableForEveryCountry && job.address?.country) {
      posting.applicantLocationRequirements = { '@type': 'Country', name: job.address.country };
    }
    if (address) posting.jobLocation = { '@type': 'Place', address };
  } else if (address) {
    posting.jobLocation = { '@type': 'Place', address };
  }
  if (!posting.jobLocation && !posting.applicantLocationRequirements) return undefined;
  if (job.salary) {
    const value: Record<string, unknown> = { '@type': 'QuantitativeValue' };
    if (job.salary.max !== undefined && job.salary.max !== job.salary.min) {
      value.minValue = job.salary.min;
      value.maxValue = job.salary.max;
    } else {
      value.value = job.salary.min;
    }
    const unit = job.salary.interval ? SALARY_UNITS[job.salary.interval] : undefined;
    if (unit) value.unitText = unit;
    posting.baseSalary = { '@type': 'MonetaryAmount', currency: job.salary.currency, value };
  }
  if (job.yearsOfExperience !== undefined && job.yearsOfExperience > 0) {
    posting.experienceRequirements = { '@type': 'OccupationalExperienceRequirements', monthsOfExperience: job.yearsOfExperience * 12 };
  }
  if (job.startDate) posting.jobStartDate = job.startDate;
  return posting;
}

/**
 * JSON for inside <script type="application/ld+json">: `<` is written \u003c, so no text can
 * close the element (`</script>`) or open a comment; U+2028/9 too, for old parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
