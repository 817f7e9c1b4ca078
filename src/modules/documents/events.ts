// The candidate file events (pure): names and payloads. Registered in the outbox's EventCatalogue
// and in the webhook catalogue (webhooks/events.ts). Metadata and a path to fetch the bytes, never
// the bytes; read with the candidates:read scope (the `candidate.` prefix).
import type { CandidateFileView } from './service.ts';

export const DOCUMENT_EVENTS = ['candidate.file_added', 'candidate.file_removed'] as const;
export type DocumentEvent = (typeof DOCUMENT_EVENTS)[number];

export interface DocumentEventPayloads {
  'candidate.file_added': { file: CandidateFileView };
  'candidate.file_removed': { file: CandidateFileView };
}

export const DOCUMENT_EVENT_PAYLOADS: Record<DocumentEvent, { sentWhen: string; dataNote: string; data: object }> = {
  'candidate.file_added': {
    sentWhen: 'a file (résumé, cover letter, portfolio, other) is attached to a candidate',
    dataNote: '`{ file }`: its metadata and `contentPath`, where the bytes are fetched (no content)',
    data: { type: 'object', required: ['file'], properties: { file: { $ref: 'CandidateFile' } } },
  },
  'candidate.file_removed': {
    sentWhen: "a candidate's file is deleted (`DELETE /candidates/{id}/files/{fileId}`; an erasure sends `candidate.erased` instead)",
    dataNote: '`{ file }`: the metadata it had (its content is gone)',
    data: { type: 'object', required: ['file'], properties: { file: { $ref: 'CandidateFile' } } },
  },
};

declare module '../../infra/outbox/record-event.ts' {
  interface EventCatalogue extends DocumentEventPayloads {}
}
