// The candidate events (pure): names and payloads. Registered in the outbox's EventCatalogue.
import type { CandidateView } from './service.ts';

export const CANDIDATE_EVENTS = ['candidate.created'] as const;
export type CandidateEvent = (typeof CANDIDATE_EVENTS)[number];

export interface CandidateEventPayloads {
  'candidate.created': { candidate: CandidateView };
}

/** When each event is sent and what its `data` holds, in words and as JSON Schema ($ref: a component). */
export const CANDIDATE_EVENT_PAYLOADS: Record<CandidateEvent, { sentWhen: string; dataNote: string; data: object }> = {
  'candidate.created': {
    sentWhen: 'a candidate is created (by an application, an import or the dashboard)',
    dataNote: '`{ candidate }`',
    data: { type: 'object', required: ['candidate'], properties: { candidate: { $ref: 'Candidate' } } },
  },
};

declare module '../../infra/outbox/record-event.ts' {
  interface EventCatalogue extends CandidateEventPayloads {}
}
