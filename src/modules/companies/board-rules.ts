// Pure rules of a company's public job board settings (docs/decisions.md, "Public job board"):
// what a slug may be, the accent colour, the privacy policy link, the intro texts and the logo's
// accepted types. No I/O: the service checks with these, the tests call them directly.
import { normalizeLanguageTag } from '../../shared/language-tags.ts';

export const SLUG_MIN = 3;
export const SLUG_MAX = 50;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Slugs a board may not take: words of the service's own paths and words that would pass for the
 * service's own pages (a board named "admin" or "login" is a phishing page in waiting).
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin', 'administrator', 'api', 'app', 'apply', 'assets', 'auth', 'billing', 'blog', 'board', 'boards',
  'careers', 'dashboard', 'docs', 'feed', 'feeds', 'help', 'home', 'jobs', 'login', 'logout', 'metrics',
  'new', 'oauth', 'oauth2', 'openapi', 'public', 'register', 'root', 'search', 'security', 'settings',
  'signin', 'signup', 'sitemap', 'static', 'status', 'support', 'system', 'www',
]);

export const SLUG_RULE = `must be ${SLUG_MIN} to ${SLUG_MAX} lower-case letters, digits and single hyphens (not at either end)`;

/** What is wrong with a slug, or undefined when it is one a board may take. */
export function slugProblem(slug: string): string | undefined {
  if (slug.length < SLUG_MIN || slug.length > SLUG_MAX || !SLUG.test(slug)) return SLUG_RULE;
  if (RESERVED_SLUGS.has(slug)) return 'is a reserved word: choose another';
  return undefined;
}

const ACCENT = /^#[0-9a-fA-F]{6}$/;

/** `#rrggbb`, stored in lower case; undefined when it is not one. */
export function normalizeAccentColor(color: string): string | undefined {
  return ACCENT.test(color) ? color.toLowerCase() : undefined;
}

export const PRIVACY_URL_MAX = 2000;

/** An https URL with a host and no credentials, as written; undefined when it is not one. */
export function normalizePrivacyPolicyUrl(raw: string): string | undefined {
  const text = raw.trim();
  if (text.length === 0 || text.length > PRIVACY_URL_MAX) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || !url.hostname || url.username || url.password) return undefined;
  return url.toString();
}

export const INTRO_MAX = 5000;
export const INTRO_LANGUAGES_MAX = 20;

/**
 * Intro texts keyed by language: tags normalized, texts trimmed, empty texts dropped. Answers the
 * cleaned map or the first problem (field path and message).
 */
export function cleanIntro(intro: Record<string, string>): { value: Record<string, string> } | { field: string; message: string } {
  const entries = Object.entries(intro);
  if (entries.length > INTRO_LANGUAGES_MAX) return { field: 'intro', message: `may hold at most ${INTRO_LANGUAGES_MAX} languages` };
  const value: Record<string, string> = {};
  for (const [tag, text] of entries) {
    const language = normalizeLanguageTag(tag);
    if (!language) return { field: `intro.${tag}`, message: 'is not a BCP 47 language tag such as en or de-CH' };
    if (typeof text !== 'string' || text.length > INTRO_MAX) return { field: `intro.${tag}`, message: `must be text of at most ${INTRO_MAX} characters` };
    const trimmed = text.trim();
    if (trimmed) value[language] = trimmed;
  }
  return { value };
}

/** Logo formats accepted (decided from the bytes). SVG is refused: it can carry script. */
export const LOGO_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };
export const LOGO_MAX_BYTES = 1024 * 1024;
export const LOGO_FORMATS = 'PNG, JPEG, WEBP';

/** The intro in the best of the given languages (ranges in order of preference), else the company's default, else any. */
export function introFor(intro: Record<string, string>, ranges: readonly string[], fallback: string): { language: string; text: string } | null {
  const languages = Object.keys(intro);
  if (languages.length === 0) return null;
  for (const range of ranges) {
    const lower = range.toLowerCase();
    const found = languages.find((tag) => tag.toLowerCase() === lower || tag.toLowerCase().startsWith(`${lower}-`));
    if (found) return { language: found, text: intro[found] };
  }
  const chosen = languages.find((tag) => tag.toLowerCase() === fallback.toLowerCase()) ?? languages.sort()[0];
  return { language: chosen, text: intro[chosen] };
}
