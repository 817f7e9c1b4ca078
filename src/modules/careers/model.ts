// What the careers pages show, as plain data: the routes fill it from the boards service, the
// templates, JSON-LD and feeds read only it. Texts are already in the page's language.
import type { CaptchaProvider } from '../boards/captcha.ts';
import type { PositionType, WorkPlaceType } from '../reference-data/enums.ts';

export interface CareersBoard {
  slug: string;
  /** The company's public name. */
  name: string;
  /** The intro text in the page's language, if the company wrote one. */
  intro?: string;
  /** A same-origin path or absolute URL of the logo. */
  logoUrl?: string;
  /** #rrggbb */
  accentColor?: string;
  privacyPolicyUrl?: string;
  /** The CAPTCHA the Apply form carries (the server's CAPTCHA_SECRET set); none: no CAPTCHA. */
  captcha?: CareersCaptcha;
}

export interface CareersCaptcha {
  provider: CaptchaProvider;
  /** Public: the widget names it. */
  siteKey: string;
}

export interface CareersAddress {
  street?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-2 */
  country?: string;
}

export interface CareersSalary {
  currency: string;
  min: number;
  max?: number;
  /** HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY */
  interval?: string;
  description?: string;
}

export interface CareersJobSummary {
  id: string;
  title: string;
  positionType: PositionType;
  workPlaceType: WorkPlaceType;
  address?: CareersAddress;
  /** ISO 8601 */
  publishedAt: string;
  updatedAt?: string;
  /** The language the title is in. */
  language?: string;
}

export interface CareersJob extends CareersJobSummary {
  description: string;
  requirementsSummary?: string;
  personalQualitiesSummary?: string;
  skills: string[];
  benefits: string[];
  salary?: CareersSalary;
  /** ISO 8601; when applications close. */
  validThrough?: string;
  /** Remote work open to applicants in any country. */
  availableForEveryCountry?: boolean;
  yearsOfExperience?: number;
  startDate?: string;
}

/** Absolute URLs of the careers site (the canonical ones: the configured public base). */
export interface CareersUrls {
  base: string;
  board(slug: string): string;
  job(slug: string, id: string): string;
}

export function careersUrls(base: string): CareersUrls {
  const root = base.replace(/\/+$/, '');
  return {
    base: root,
    board: (slug) => `${root}/careers/${encodeURIComponent(slug)}`,
    job: (slug, id) => `${root}/careers/${encodeURIComponent(slug)}/jobs/${encodeURIComponent(id)}`,
  };
}

