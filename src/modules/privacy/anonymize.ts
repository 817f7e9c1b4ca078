// Pure: how a stored copy of a person's data is made anonymous (docs/decisions.md, "Personal
// data"). Structured copies (event data, webhook bodies, stored answers) are rewritten field by
// field where they describe the person; every string left is then scrubbed of the person's own
// values (names, e-mail, phone...), so a copy in a shape this file does not know is covered too.

export interface Person {
  candidateId: string;
  applicationIds: readonly string[];
  /** What the candidate's fields hold after erasure. */
  replacement: Record<string, unknown>;
  /** The person's own values, longest first, matched without letter case. */
  needles: string[];
}

export const ERASED_TEXT = '[erased]';

export function personOf(
  candidate: { id: string; firstName: string; lastName: string; email: string; phone: string | null; headline: string | null; location: string | null; links: string[] },
  applicationIds: readonly string[],
  replacement: Record<string, unknown>,
): Person {
  const values = [
    `${candidate.firstName} ${candidate.lastName}`,
    candidate.firstName,
    candidate.lastName,
    candidate.email,
    candidate.phone,
    candidate.headline,
    candidate.location,
    ...candidate.links,
  ];
  // Two letters at least: a one-letter "name" would scrub every such letter of the copy.
  const needles = [...new Set(values.filter((value): value is string => typeof value === 'string' && value.trim().length >= 2))];
  needles.sort((a, b) => b.length - a.length);
  return { candidateId: candidate.id, applicationIds, replacement, needles };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces every occurrence of the person's values, in any letter case. */
export function scrubText(text: string, person: Person): string {
  if (person.needles.length === 0) return text;
  const pattern = new RegExp(person.needles.map(escape).join('|'), 'gi');
  return text.replace(pattern, ERASED_TEXT);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `value` with the person's data gone: their candidate objects, cover letters, move reasons and notes' texts. */
export function scrubValue(value: unknown, person: Person): unknown {
  if (typeof value === 'string') return scrubText(value, person);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, person));
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = scrubValue(item, person);
  if (value.id === person.candidateId && ('email' in value || 'firstName' in value)) {
    for (const key of Object.keys(person.replacement)) if (key in value) copy[key] = person.replacement[key];
  }
  const ofPerson = value.jobSeekerId === person.candidateId || (typeof value.id === 'string' && person.applicationIds.includes(value.id));
  if (ofPerson && 'coverLetter' in value) copy.coverLetter = null;
  // A note on the person (note.created, note.updated): its text may say anything about them.
  if (value.candidateId === person.candidateId && typeof value.body === 'string') copy.body = ERASED_TEXT;
  if (isObject(value.application) && person.applicationIds.includes(value.application.id as string) && 'reason' in value) copy.reason = null;
  return copy;
}

/** A stored text: JSON is rewritten structurally, anything else scrubbed as text. */
export function scrubStored(text: string, person: Person): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return scrubText(text, person);
  }
  return JSON.stringify(scrubValue(parsed, person));
}
