// The candidate events (pure): names and payloads. Registered in the outbox's EventCatalogue.
import type { CandidateView } from './service.ts';

export const CANDIDATE_EVENTS = ['candidate.created', 'candidate.erased'] as const;
export type CandidateEvent = (typeof CANDIDATE_EVENTS)[number];

export interface CandidateEventPayloads {
  'candidate.created': { candidate: CandidateView };
  /** Ids only: the event itself must hold no personal data. */
  'candidate.erased': { candidateId: string; applicationIds: string[] };
}

/** When each event is sent and what its `data` holds, in words and as JSON Schema ($ref: a component). */
export const CANDIDATE_EVENT_PAYLOADS: Record<CandidateEvent, { sentWhen: string; dataNote: string; data: object }> = {
  'candidate.created': {
    sentWhen: 'a candidate is created (by an application, an import or the dashboard)',
    dataNote: '`{ candidate }`',
    data: { type: 'object', required: ['candidate'], properties: { candidate: { $ref: 'Candidate' } } },
  },
  'candidate.erased': {
    sentWhen:
      'a candidate is erased on request (`DELETE /candidates/{id}`): their personal data is gone from the service, stored events and delivery logs included; delete your copy too',
    dataNote: '`{ candidateId, applicationIds }` (ids only, no personal data)',
    data: {
      type: 'object',
      required: ['candidateId', 'applicationIds'],
      properties: {
        candidateId: { type: 'string', format: 'uuid' },
        applicationIds: { type: 'array', items: { type: 'string', format: 'uuid' }, description: 'Their applications, kept anonymized' },
      },
    },
  },
};

declare module '../../infra/outbox/record-event.ts' {
  interface EventCatalogue extends CandidateEventPayloads {}
}
