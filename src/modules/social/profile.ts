// What a social provider tells us about the person signing in, reduced to the few facts the
// linking rules use. Pure: each provider's quirks are handled here and unit-tested.
import { unstorableText } from '../../shared/storable-text.ts';

export const SOCIAL_PROVIDERS = ['google', 'linkedin', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const PROVIDER_NAMES: Record<SocialProvider, string> = {
  google: 'Google',
  linkedin: 'LinkedIn',
  facebook: 'Facebook',
};

export function isSocialProvider(value: string): value is SocialProvider {
  return (SOCIAL_PROVIDERS as readonly string[]).includes(value);
}

export interface ExternalProfile {
  provider: SocialProvider;
  /** The provider's stable id of the person (`sub`, or Facebook's app-scoped user id). */
  subject: string;
  /** Lower-cased; undefined when the provider gave none (or none that looks like an address). */
  email: string | undefined;
  /** True only when the provider vouches that the person controls the address. */
  emailVerified: boolean;
  name: string | undefined;
  picture: string | undefined;
}

/** Thrown when a provider's answer lacks what every sign-in needs (a subject). */
export class ProviderAnswerError extends Error {}

const MAX_EMAIL = 254;
const MAX_NAME = 200;
const MAX_URL = 2000;

// A claim PostgreSQL could not store (a NUL character, a lone surrogate) counts as not given.
function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string' || unstorableText(value) !== undefined) return undefined;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= max ? trimmed : undefined;
}

export function normalizeEmail(value: unknown): string | undefined {
  const email = text(value, MAX_EMAIL)?.toLowerCase();
  // Only a plausibility check: the provider verified the address, we just refuse garbage.
  return email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : undefined;
}

function pictureUrl(value: unknown): string | undefined {
  const raw = text(value, MAX_URL);
  if (!raw) return undefined;
  try {
    // Shown in our pages as an <img>: only https, never javascript: or data: URLs.
    return new URL(raw).protocol === 'https:' ? raw : undefined;
  } catch {
    return undefined;
  }
}

function subjectOf(value: unknown): string {
  const subject = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  if (subject.length === 0 || subject.length > 255 || unstorableText(subject) !== undefined) {
    throw new ProviderAnswerError('the provider gave no usable subject');
  }
  return subject;
}

/**
 * Google and LinkedIn (OpenID Connect): the ID token's (or userinfo's) standard claims.
 * `email_verified` must be exactly true; LinkedIn sends it as the string "true", which counts.
 */
export function profileFromOidcClaims(provider: SocialProvider, claims: Record<string, unknown>): ExternalProfile {
  const email = normalizeEmail(claims.email);
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  const name =
    text(claims.name, MAX_NAME) ??
    text([claims.given_name, claims.family_name].filter((part) => typeof part === 'string').join(' '), MAX_NAME);
  return {
    provider,
    subject: subjectOf(claims.sub),
    email,
    emailVerified: email !== undefined && verified,
    name,
    picture: pictureUrl(claims.picture),
  };
}

/**
 * Facebook's Graph `me` answer (fields id,name,email,picture). Facebook returns `email` only when
 * the person has a confirmed address on their account, so a present e-mail counts as verified
 * (docs/decisions.md, "Facebook e-mail counts as verified"); no e-mail means none to link on.
 */
export function profileFromFacebook(me: Record<string, unknown>): ExternalProfile {
  const picture = (me.picture as { data?: { url?: unknown; is_silhouette?: unknown } } | undefined)?.data;
  const email = normalizeEmail(me.email);
  return {
    provider: 'facebook',
    subject: subjectOf(me.id),
    email,
    emailVerified: email !== undefined,
    name: text(me.name, MAX_NAME),
    picture: picture?.is_silhouette === true ? undefined : pictureUrl(picture?.url),
  };
}
