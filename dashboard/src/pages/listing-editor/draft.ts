// A human translation being written, for one language: prefilled from the listing read in that
// language, and the body PUT .../translations/{lang} takes.
import type { RequestBody } from '../../api';
import type { Listing } from './form';

type Translated = NonNullable<Listing['jobDescription']>;
type TranslationBody = RequestBody<'/public/v1/job-listings/{id}/translations/{lang}', 'put'>;

/** The listing's single texts, each with its label. */
export const SINGLE_TEXTS = [
  ['position', 'Position'],
  ['jobDescription', 'Job description'],
  ['requirementsSummary', 'Requirements summary'],
  ['personalQualitiesSummary', 'Personal qualities'],
  ['salaryDescription', 'Salary note'],
  ['fieldOfStudy', 'Field of study'],
] as const;
export type SingleKey = (typeof SINGLE_TEXTS)[number][0];

/** What the human has written for one language; an empty string is "no human translation". */
export interface Draft {
  single: Partial<Record<SingleKey, string>>;
  benefits: string[];
  skills: string[];
  steps: Record<string, { stepName: string; description: string }>;
}

/** A human translation is prefilled; an AI one is only shown (saving it would make it a human one). */
const human = (text: Translated | null | undefined) => (text?.translated && text.translationType === 'HUMAN' ? text.value : '');

export function draftOf(texts: Listing): Draft {
  return {
    single: Object.fromEntries(SINGLE_TEXTS.map(([key]) => [key, human(texts[key])])),
    benefits: texts.benefits.map(human),
    skills: texts.skills.map((skill) => human(skill.value)),
    steps: Object.fromEntries(texts.hiringProcessSteps.map((step) => [step.id, { stepName: human(step.stepName), description: human(step.description) }])),
  };
}

/**
 * All or none: the API takes one translation per benefit (or skill), in order. A list filled in
 * part is left out of a save (the rest is saved) and keeps what was typed; this says so at the list.
 */
export function listProblems(draft: Draft): Partial<Record<'benefits' | 'skills', string>> {
  const problem = (values: string[], noun: string) => {
    const filled = values.filter((value) => value.trim()).length;
    return filled > 0 && filled < values.length ? `Translate every ${noun} or none (${filled} of ${values.length} filled): the ${noun}s are saved once all are.` : undefined;
  };
  const problems: Partial<Record<'benefits' | 'skills', string>> = {};
  const benefits = problem(draft.benefits, 'benefit');
  const skills = problem(draft.skills, 'skill');
  if (benefits) problems.benefits = benefits;
  if (skills) problems.skills = skills;
  return problems;
}

/** The API's refusals by the draft's fields: `position`, `benefits.1`, `skills[0]` → the key shown at that field. */
export function fieldErrors(details: ReadonlyArray<{ field: string; message: string }>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { field, message } of details) {
    const key = field.replace(/^body\.?/, '').replace(/\[(\d+)\]/g, '.$1');
    errors[key] = errors[key] ? `${errors[key]}; ${message}` : message;
  }
  return errors;
}

export function bodyOfDraft(draft: Draft): TranslationBody {
  const body: TranslationBody = {};
  for (const [key] of SINGLE_TEXTS) {
    const value = draft.single[key]?.trim();
    if (value) body[key] = value;
  }
  if (draft.benefits.length && draft.benefits.every((value) => value.trim())) body.benefits = draft.benefits.map((value) => value.trim());
  if (draft.skills.length && draft.skills.every((value) => value.trim())) body.skills = draft.skills.map((value) => value.trim());
  const steps = Object.entries(draft.steps)
    .map(([id, step]) => ({ id, ...(step.stepName.trim() ? { stepName: step.stepName.trim() } : {}), ...(step.description.trim() ? { description: step.description.trim() } : {}) }))
    .filter((step) => Object.keys(step).length > 1);
  if (steps.length) body.hiringProcessSteps = steps;
  return body;
}
