// The application events (pure): names and payloads. Registered in the outbox's EventCatalogue.
import { APPLICATION_STAGES, type ApplicationStage } from './stages.ts';
import type { ApplicationSummaryView } from './view.ts';
import type { RejectionReasonRef } from '../companies/service.ts';

export const APPLICATION_EVENTS = ['application.created', 'application.status_changed'] as const;
export type ApplicationEvent = (typeof APPLICATION_EVENTS)[number];

export interface ApplicationEventPayloads {
  /** A candidate entered a listing's pipeline (submitted, or imported with jobListingId). */
  'application.created': { application: ApplicationSummaryView };
  'application.status_changed': {
    application: ApplicationSummaryView;
    previousStatus: ApplicationStage;
    newStatus: ApplicationStage;
    reason: string | null;
    /** The company's rejection reason the move gave (REJECTED or WITHDRAWN only). */
    rejectionReason: RejectionReasonRef | null;
  };
}

const STAGE = { type: 'string', enum: [...APPLICATION_STAGES] };

/** When each event is sent and what its `data` holds, in words and as JSON Schema ($ref: a component). */
export const APPLICATION_EVENT_PAYLOADS: Record<ApplicationEvent, { sentWhen: string; dataNote: string; data: object }> = {
  'application.created': {
    sentWhen: 'an application is created (submitted through the API or the dashboard)',
    dataNote: '`{ application }`',
    data: { type: 'object', required: ['application'], properties: { application: { $ref: 'ApplicationSummary' } } },
  },
  'application.status_changed': {
    sentWhen: 'an application moves to another pipeline stage',
    dataNote: '`{ application, previousStatus, newStatus, reason, rejectionReason }` (`reason`: the free-text note; `rejectionReason`: `{ id, name, kind }` of the company\'s reason a move to REJECTED or WITHDRAWN gave, else null)',
    data: {
      type: 'object',
      required: ['application', 'previousStatus', 'newStatus', 'reason', 'rejectionReason'],
      properties: {
        application: { $ref: 'ApplicationSummary' },
        previousStatus: STAGE,
        newStatus: STAGE,
        reason: { type: ['string', 'null'] },
        rejectionReason: { oneOf: [{ $ref: 'RejectionReasonRef' }, { type: 'null' }] },
      },
    },
  },
};

declare module '../../infra/outbox/record-event.ts' {
  interface EventCatalogue extends ApplicationEventPayloads {}
}
