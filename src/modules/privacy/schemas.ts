import { Type } from 'typebox';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const CandidateExport = Type.Object(
  {
    exportedAt: Type.String({ format: 'date-time' }),
    candidate: Type.Ref('Candidate'),
    applications: Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        jobListingId: Type.String({ format: 'uuid' }),
        status: Type.String({ description: 'Pipeline stage' }),
        source: Type.String(),
        coverLetter: Nullable(Type.String()),
        appliedAt: Type.String({ format: 'date-time' }),
        updatedAt: Type.String({ format: 'date-time' }),
        history: Type.Array(
          Type.Object({
            fromStatus: Nullable(Type.String()),
            toStatus: Type.String(),
            reason: Nullable(Type.String()),
            rejectionReason: Nullable(Type.String({ description: "The name of the company's rejection reason the move gave" })),
            changedAt: Type.String({ format: 'date-time' }),
          }),
          { description: 'Every stage entered, oldest first' },
        ),
      }),
      { description: "The candidate's applications to the company's listings, with their texts and history" },
    ),
    notes: Type.Array(Type.Ref('Note'), { description: 'The notes written on the candidate (deleted ones are gone), oldest first' }),
    files: Type.Array(Type.Ref('CandidateFile'), {
      description: "The candidate's files (metadata; each names its contentPath, where the bytes are fetched)",
    }),
    events: Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        type: Type.String(),
        timestamp: Type.String({ format: 'date-time' }),
        data: Type.Object({}, { additionalProperties: true }),
      }),
      { description: 'Stored events that name the candidate or their applications (as delivered to webhooks)' },
    ),
    webhookDeliveries: Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        subscriptionId: Type.String({ format: 'uuid' }),
        eventId: Type.String({ format: 'uuid' }),
        eventType: Type.String(),
        status: Type.String(),
        attemptCount: Type.Integer(),
        createdAt: Type.String({ format: 'date-time' }),
      }),
      { description: 'Webhook deliveries that carried such an event (their body is the event above)' },
    ),
  },
  { $id: 'CandidateExport', description: 'Everything the service stores about one candidate' },
);
