// The candidate pages' words for the API's enumerations. A stop-gap kept here until the dashboard's
// shared labels (labels.ts) land: the stage names are the pipeline's (one name for each stage).
import type { Schemas } from '../../api';

export type Stage = Schemas['ApplicationSummary']['status'];
export type Source = Schemas['ApplicationSummary']['source'];
export type FileKind = Schemas['CandidateFile']['kind'];

export const STAGE_LABEL: Record<Stage, string> = {
  ACTIVE: 'Applied',
  IN_REVIEW: 'In review',
  INTERVIEW: 'Interview',
  OFFER: 'Offer',
  HIRED: 'Hired',
  REJECTED: 'Rejected',
  WITHDRAWN: 'Withdrawn',
};
export const STAGES = Object.keys(STAGE_LABEL) as Stage[];

export const SOURCE_LABEL: Record<Source, string> = {
  EXTERNAL: 'Applied directly',
  INTERNAL: 'Internal',
  REFERRAL: 'Referral',
  AGENCY: 'Agency',
  JOB_BOARD: 'Job board',
  CAREER_SITE: 'Careers page',
  IMPORTED: 'Imported',
};
export const SOURCES = Object.keys(SOURCE_LABEL) as Source[];

/** A candidate's `source` is a plain string in the API: an unknown one is shown as it is. */
export const sourceLabel = (source: string) => SOURCE_LABEL[source as Source] ?? source;

export const KIND_LABEL: Record<FileKind, string> = {
  RESUME: 'Résumé',
  COVER_LETTER: 'Cover letter',
  PORTFOLIO: 'Portfolio',
  OTHER: 'Other document',
};
export const KINDS = Object.keys(KIND_LABEL) as FileKind[];

/** "240 KB", "1.4 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
