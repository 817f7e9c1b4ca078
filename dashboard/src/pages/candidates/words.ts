// The candidate pages' few words beyond the dashboard's shared labels (labels.ts): the sources and
// file kinds as lists, and the size of a file.
import type { Schemas } from '../../api';
import { FILE_KIND_LABELS, label, SOURCE_LABELS, type Source } from '../../labels';

export type FileKind = Schemas['CandidateFile']['kind'];

export const SOURCES = Object.keys(SOURCE_LABELS) as Source[];
/** A candidate's `source` is a plain string in the API: an unknown one is put in words as it is. */
export const sourceLabel = (source: string) => label(SOURCE_LABELS, source);

export const KINDS: FileKind[] = ['RESUME', 'COVER_LETTER', 'PORTFOLIO', 'OTHER'];
export const kindLabel = (kind: string) => label(FILE_KIND_LABELS, kind);

/** "240 KB", "1.4 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}
