// Allowed values of the job listing's enumerated fields that the contract shows only by example
// ("GROSS is one known value"). One list per field: validation, storage and the OpenAPI document
// all read from here. The contract's own enums (status, position and work place type) live in
// src/modules/reference-data/enums.ts.
export const SKILL_TYPES = ['SKILL', 'LANGUAGE', 'DRIVING_LICENSE', 'CERTIFICATION', 'SOFTWARE'] as const;
export const EXPERT_TYPES = ['BEGINNER', 'INTERMEDIATE', 'ADVANCED', 'EXPERT'] as const;
/** CEFR levels, plus NATIVE. */
export const LANGUAGE_PROFICIENCIES = ['A1', 'A2', 'B1', 'B2', 'C1', 'C2', 'NATIVE'] as const;
/** EU driving licence categories. */
export const DRIVING_CLASSES = [
  'AM', 'A1', 'A2', 'A', 'B1', 'B', 'BE', 'C1', 'C1E', 'C', 'CE', 'D1', 'D1E', 'D', 'DE', 'T',
] as const;
export const SALARY_TYPES = ['GROSS', 'NET'] as const;
export const PAYMENT_INTERVALS = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export const EDUCATION_LEVELS = [
  'NONE', 'PRIMARY', 'SECONDARY', 'VOCATIONAL', 'ASSOCIATE', 'BACHELOR', 'MASTER', 'DOCTORATE',
] as const;
export const TRANSLATION_TYPES = ['HUMAN', 'AI'] as const;

export type TranslationType = (typeof TRANSLATION_TYPES)[number];
